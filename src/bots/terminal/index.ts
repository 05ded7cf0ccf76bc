/** The terminal front end: a local chat over the core's ChatEngine (nothing configured, P1). */
export { type LineResult, TerminalChat, type TerminalChatOptions } from './terminal-chat';
export { helpLines, parseTerminalInput, type TerminalInput } from './terminal-commands';
export { DEFAULT_TERMINAL_IDENTITY, type TerminalIdentity } from './terminal-identity';
export { TerminalPlatform, type TerminalPlatformOptions } from './terminal-platform';
export { TerminalScreen } from './terminal-screen';
export { type TerminalThread, TerminalThreads, type ThreadEntry } from './terminal-threads';
export { decodeTerminalThreadId, encodeTerminalThreadId, type TerminalThreadParts } from './thread-id';
