import { NotFoundError, ValidationError } from '../../core/errors';
import type { OutboundContent, OutboundMessage, ThreadId } from '../../core/ports/chat-platform';
import { decodeTerminalThreadId, encodeTerminalThreadId } from './thread-id';

/** A line the person typed. */
export interface PersonEntry {
  kind: 'person';
  ref: string;
  sender: string;
  text: string;
  at: Date;
}

/** A message the core posted; notes and approval cards carry a short number to type (`/open 2`). */
export interface PostedEntry {
  kind: 'posted';
  ref: string;
  message: OutboundMessage;
  cardNumber: number | null;
  at: Date;
}

export type ThreadEntry = PersonEntry | PostedEntry;

export interface TerminalThread {
  number: number;
  id: ThreadId;
  /** The first words of the thread's first message. */
  title: string;
  lastActivity: Date;
  entries: readonly ThreadEntry[];
}

interface ThreadState {
  number: number;
  id: ThreadId;
  title: string;
  lastActivity: Date;
  entries: ThreadEntry[];
  cards: number;
}

const TITLE_WORDS = 6;
const TITLE_CHARS = 40;

/**
 * The screen's model: every thread and its messages in the order they appeared, so that an
 * update can redraw a message and `/thread n` can show a thread again. Message refs (`m1`,
 * `m2`…) are shared by the person's lines and the core's posts.
 */
export class TerminalThreads {
  private readonly threads = new Map<number, ThreadState>();
  private readonly byRef = new Map<string, ThreadState>();
  private refCount = 0;

  /** `session` keeps this chat's thread ids apart from an earlier session's (see thread-id.ts). */
  constructor(
    readonly channel: string,
    readonly session?: string,
  ) {}

  list(): readonly TerminalThread[] {
    return [...this.threads.values()].sort((a, b) => a.number - b.number);
  }

  get(number: number): TerminalThread | undefined {
    return this.threads.get(number);
  }

  /** The thread number of one of this channel's thread ids; anything else is refused. */
  numberOf(id: ThreadId): number {
    const parts = decodeTerminalThreadId(id);
    if (parts === null || parts.channel !== this.channel || parts.session !== this.session) {
      throw new ValidationError(`"${id}" is not a thread of terminal channel ${this.channel}.`);
    }
    return parts.number;
  }

  /** Starts the next thread: numbers follow the order threads appear (`[1]`, `[2]`…). */
  start(at: Date): TerminalThread {
    const last = Math.max(0, ...this.threads.keys());
    return this.ensure(last + 1, at);
  }

  /** The thread with that number, created when the core posts into one the screen has not seen. */
  ensure(number: number, at: Date): TerminalThread {
    return this.state(number, at);
  }

  addPerson(number: number, sender: string, text: string, at: Date): PersonEntry {
    const thread = this.state(number, at);
    const entry: PersonEntry = { kind: 'person', ref: this.nextRef(), sender, text, at };
    this.append(thread, entry, text);
    return entry;
  }

  addPosted(number: number, message: OutboundMessage, at: Date): PostedEntry {
    const thread = this.state(number, at);
    const cardNumber = isCard(message.content) ? ++thread.cards : null;
    const entry: PostedEntry = { kind: 'posted', ref: this.nextRef(), message, cardNumber, at };
    this.append(thread, entry, contentText(message.content));
    return entry;
  }

  /** P9, N7: replaces a posted message in place; the previous version is returned for the redraw. */
  replace(
    number: number,
    ref: string,
    message: OutboundMessage,
    at: Date,
  ): { previous: PostedEntry; next: PostedEntry } {
    const thread = this.byRef.get(ref);
    const index = thread?.entries.findIndex((entry) => entry.ref === ref) ?? -1;
    const previous = thread?.entries[index];
    if (thread === undefined || thread.number !== number || previous?.kind !== 'posted') {
      throw new NotFoundError(`No message ${ref} posted in thread [${number}].`);
    }
    const cardNumber = previous.cardNumber ?? (isCard(message.content) ? ++thread.cards : null);
    const next: PostedEntry = { ...previous, message, cardNumber };
    thread.entries[index] = next;
    thread.lastActivity = at;
    return { previous, next };
  }

  /** N13: the newest question card of the thread still waiting for an answer. */
  pendingQuestion(number: number): PostedEntry | undefined {
    const entries = this.threads.get(number)?.entries ?? [];
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const entry = entries[i];
      if (entry?.kind !== 'posted') continue;
      const content = entry.message.content;
      if (content.kind === 'question' && content.card.status === 'pending') return entry;
    }
    return undefined;
  }

  /** P15: the runs whose status cards in that thread still show them working (and stoppable). */
  workingRuns(number: number): string[] {
    const runs: string[] = [];
    for (const entry of this.threads.get(number)?.entries ?? []) {
      if (entry.kind !== 'posted' || entry.message.content.kind !== 'status') continue;
      const card = entry.message.content.card;
      if (card.state === 'working' && card.stopRunId !== undefined) runs.push(card.stopRunId);
    }
    return runs;
  }

  /** P9, T2: the ref of the status card in that thread whose Stop names the run (still working). */
  runCard(number: number, runId: string): string | null {
    for (const entry of this.threads.get(number)?.entries ?? []) {
      if (entry.kind !== 'posted' || entry.message.content.kind !== 'status') continue;
      if (entry.message.content.card.stopRunId === runId) return entry.ref;
    }
    return null;
  }

  /** The note, approval or question card shown as `#card` in that thread. */
  card(number: number, card: number): PostedEntry | undefined {
    for (const entry of this.threads.get(number)?.entries ?? []) {
      if (entry.kind === 'posted' && entry.cardNumber === card) return entry;
    }
    return undefined;
  }

  private state(number: number, at: Date): ThreadState {
    const existing = this.threads.get(number);
    if (existing) return existing;
    const id = encodeTerminalThreadId({
      channel: this.channel,
      number,
      ...(this.session === undefined ? {} : { session: this.session }),
    });
    const thread: ThreadState = { number, id, title: '', lastActivity: at, entries: [], cards: 0 };
    this.threads.set(number, thread);
    return thread;
  }

  private append(thread: ThreadState, entry: ThreadEntry, text: string): void {
    thread.entries.push(entry);
    thread.lastActivity = entry.at;
    if (thread.title === '') thread.title = titleOf(text);
    this.byRef.set(entry.ref, thread);
  }

  private nextRef(): string {
    this.refCount += 1;
    return `m${this.refCount}`;
  }
}

function isCard(content: OutboundContent): boolean {
  return content.kind === 'note' || content.kind === 'approval' || content.kind === 'question';
}

/** What a message says in a few words, for a thread's title. */
function contentText(content: OutboundContent): string {
  switch (content.kind) {
    case 'text':
      return content.text;
    case 'status':
      return content.card.headline;
    case 'note':
      return content.card.text;
    case 'approval':
      return content.card.summary;
    case 'question':
      return content.card.text;
  }
}

export function titleOf(text: string): string {
  const words = text.split(/\s+/).filter((word) => word !== '');
  const title = words.slice(0, TITLE_WORDS).join(' ');
  const cut = title.length > TITLE_CHARS ? title.slice(0, TITLE_CHARS).trimEnd() : title;
  return cut.length < words.join(' ').length ? `${cut}…` : cut;
}
