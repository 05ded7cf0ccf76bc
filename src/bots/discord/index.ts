export { DiscordFrontEnd, type DiscordFrontEndOptions } from './discord-front-end';
export { DiscordPlatform, privateText } from './discord-platform';
export { type DiscordThreadParts, decodeDiscordThreadId, encodeDiscordThreadId } from './discord-thread-id';
export { decodeCustomId, encodeCustomId } from './outbound/custom-id';
