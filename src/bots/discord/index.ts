export { decodeCustomId, encodeCustomId } from './custom-id';
export { type DiscordFrontEndOptions, DiscordFrontEnd } from './discord-front-end';
export { DiscordPlatform, privateText } from './discord-platform';
export { type DiscordThreadParts, decodeDiscordThreadId, encodeDiscordThreadId } from './discord-thread-id';
export { splitMessage } from './split-message';
