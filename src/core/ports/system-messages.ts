import type { ConversationRecord } from '../model/conversation-records';

/**
 * Posts a system line in a conversation's thread, stored in its history first: the engine's
 * `postSystemMessage`, bound by `src/app`. An adapter that tells a thread something (a pull
 * request's link) is handed this instead of importing the engine (adapters implement ports;
 * they never reach into `core/engine`).
 */
export type SystemMessagePoster = (conversation: ConversationRecord, text: string) => Promise<void>;
