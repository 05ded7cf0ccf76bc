import type { Platform } from '../model/platform';
import type { ChatEngine } from '../ports/chat-engine';
import type { ChatPlatform } from '../ports/chat-platform';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { Store } from '../ports/store';
import type { WaitSignals } from '../ports/wait-signals';

/** E6: how long `ask_agent` waits for the turn's end before it answers "still working". */
export const DEFAULT_ASK_WAIT_MS = 10 * 60 * 1000;

/** The chat this process runs: its engine (a mention's and a card click's path) and platforms. */
export interface McpChat {
  engine: ChatEngine;
  platforms: ReadonlyMap<Platform, ChatPlatform>;
  /** T1: the engine's signals: a run's end is notified in whichever process ran it (T5). */
  signals: WaitSignals;
}

/** What the member tools work with: the store, and the chat running now (if any). */
export interface MemberToolsDeps {
  store: Store;
  /** Asked at each call: the chat front ends', or the terminal chat's while it is open; null: none. */
  chat: () => McpChat | null;
  clock: Clock;
  logger: Logger;
  /** Event ids of the messages `ask_agent` hands the engine (P6: each is one event). */
  newId: () => string;
  askWaitMs?: number;
}
