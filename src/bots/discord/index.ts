export { decodeCustomId, encodeCustomId } from './custom-id';
export { DiscordFrontEnd, type DiscordFrontEndOptions } from './discord-front-end';
export { DiscordPlatform, privateText } from './discord-platform';
export { type DiscordThreadParts, decodeDiscordThreadId, encodeDiscordThreadId } from './discord-thread-id';
