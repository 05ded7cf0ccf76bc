import type { AttachmentRef } from '../model/attachment';
import type { ApprovalStatus } from '../model/guardrail';
import type { Platform } from '../model/platform';
import type { AttachmentFetcher } from './attachment-fetcher';
import type { DeliverOptions, RecordSent, StoreCalls } from './outbox';
import type { PlatformGroups } from './platform-groups';
import type { TurnSession, TurnSessionOpening } from './turn-session';

/**
 * Opaque thread ids, one format per platform, so the core never parses them:
 * `terminal:{channel}:{thread}`, `slack:{channel}:{thread_ts}`, `discord:{guild}:{channel}:{thread}`.
 * Every platform's contract test checks they round-trip.
 */
export type ThreadId = string;

/** Who a message is posted as (P2: an agent under its own name and avatar). */
export type Speaker = { kind: 'agent'; name: string; avatarUrl: string | null } | { kind: 'system' };

/** P9: one card per turn, edited in place while it runs. */
export interface StatusCard {
  agent: string;
  state: 'working' | 'done' | 'failed' | 'stopped';
  /** `Working on it…`, `Thinking…`, `Cloning acme/api…` */
  headline: string;
  /** One row per tool call, newest last. */
  rows: string[];
  /** P15: the run a Stop button stops; present only while the turn runs (no button without it). */
  stopRunId?: string;
}

/** P4, N5–N9: a note folds into one row; unfolded it shows the whole prompt. */
export interface NoteCard {
  /** The stored message id: what the Open / Fold buttons carry. */
  messageId: string;
  /** N5: `note from this relay · report builder · answered below · 14:02` */
  row: string;
  text: string;
  open: boolean;
  /** N1–N3: the badge; absent on notes drawn before it existed (platforms then show the row only). */
  source?: NoteSource;
}

/**
 * N1–N3: the context badge of a note: the conversation the sending agent runs in, by its
 * current title, linked while that conversation exists on the same platform, and (the longer
 * form, N2) who sent it.
 */
export interface NoteSource {
  /** N2: the source conversation's current title; null when unknown (then left out). */
  title: string | null;
  /** N3: the source conversation's thread on this note's platform while it exists; else null (plain text). */
  thread: ThreadId | null;
  /** N2: the sending agent's name, with its relay when it is a paired one (`qa on acme-relay`). */
  sender: string;
  /** N3: from a paired relay, the sending session's address there when that relay's is known. */
  url?: string | null;
}

/** G4, P5: an approval card with Approve and Deny buttons (E4: and Approve for this conversation). */
export interface ApprovalCard {
  /** The stored approval id: what the buttons carry (≤ 100 characters on Discord). */
  approvalId: string;
  agent: string;
  action: string;
  summary: string;
  details: string[];
  status: ApprovalStatus;
  decidedBy: string | null;
  /** E4: preformatted text shown as a block (an MCP call's arguments, bounded, secrets masked). */
  code?: string;
  /** E4: while pending, a third button: "Approve for this conversation" (MCP calls only). */
  offersConversation?: boolean;
  /** E4: approved for the whole conversation ("Approved for this conversation by @dana"). */
  forConversation?: boolean;
}

/**
 * N13: a question an agent asked while working; the run waits for the answer. A platform
 * shows the agent, the question, the options numbered from 1, and how to answer (the
 * terminal: `/answer <n|text>`; buttons or a reply where the platform has them), and once
 * answered, the answer and who gave it. Answers go to `ChatEngine.act` (an `answer` action).
 */
export interface QuestionCard {
  /** The stored question id: what an answer carries back. */
  questionId: string;
  agent: string;
  text: string;
  /** Numbered from 1 when shown; empty for a free-text question. */
  options: string[];
  status: 'pending' | 'answered' | 'cancelled';
  answer: string | null;
  /** The member's nickname or the agent's name; null while pending. */
  answeredBy: string | null;
  /** P15: cancelled because a person stopped the asking turn: their nickname. */
  stoppedBy?: string;
}

export type OutboundContent =
  | { kind: 'text'; text: string }
  | { kind: 'status'; card: StatusCard }
  | { kind: 'note'; card: NoteCard }
  | { kind: 'approval'; card: ApprovalCard }
  | { kind: 'question'; card: QuestionCard };

export interface OutboundMessage {
  as: Speaker;
  content: OutboundContent;
}

/** `postStored`'s side of the caller: the workspace and members the thread is known with, and its write. */
export interface StoredPost {
  workspaceId: string;
  /** M11: whom the message may name (`@nickname` becomes the platform's mention). */
  members: readonly { nickname: string; slackUserId: string | null; discordUserId: string | null }[];
  store: StoreCalls;
  /** P7, T3: the stored calls that went out, handed to the caller to record as sent (`RecordSent`). */
  recordSent?: RecordSent | undefined;
}

/**
 * The chat platform port: everything the core asks of Slack, Discord or the terminal. A
 * platform translates; it holds no rules (bolt-js: the transport receives and acknowledges).
 */
export interface ChatPlatform {
  readonly platform: Platform;
  /**
   * Posts into a thread and returns the platform's ref of the posted message. P9 (decision):
   * with `withdrawn`, the post is a turn's sign of life, which a platform whose calls are
   * backed up may hold and withdraw once that aborts (rejecting with `CallWithdrawn`).
   */
  post(thread: ThreadId, message: OutboundMessage, options?: DeliverOptions): Promise<string>;
  /**
   * P7, T2: `post`, its outgoing calls stored by `stored.store` in the caller's transaction with
   * what that records (a turn's reply: the message and the calls that show it, one commit),
   * and sent once it commits. `store` is called exactly once, before anything is sent. Absent
   * where the platform's calls are not stored (the terminal).
   */
  postStored?(thread: ThreadId, message: OutboundMessage, stored: StoredPost): Promise<string>;
  /** Replaces a posted message (status cards, notes folding, decided approvals). */
  update(thread: ThreadId, messageRef: string, message: OutboundMessage): Promise<void>;
  /**
   * N4, M23: starts a new thread in a bound channel with `message` as its first message (an
   * agent's tool created the conversation); returns the new thread and the message's ref.
   */
  startThread(channelId: string, message: OutboundMessage): Promise<{ thread: ThreadId; messageRef: string }>;
  /** A message only one person sees (M5's hint, refusals), threaded where it cannot be private. */
  tellPrivately(thread: ThreadId, platformUserId: string, text: string): Promise<void>;
  /** P13: downloads files attached to people's messages; absent where the platform has none. */
  readonly attachments?: AttachmentFetcher | undefined;
  /**
   * N3: the platform's own link to a thread (Slack: its permalink), which opens it for people
   * the platform lets in; null when it has none for it; absent where the platform has no links.
   */
  threadLink?(thread: ThreadId): Promise<string | null>;
  /**
   * P14: a reply that streams into the thread as the agent writes it, under the agent's name.
   * Optional: a platform without it (the terminal) gets the whole reply from `post`.
   */
  streamReply?(thread: ThreadId, opening: ReplyStreamOpening): ReplyStream;
  /** P15: the platform's own session around a turn (Slack's agent session); absent where there is none. */
  turnSession?(thread: ThreadId, opening: TurnSessionOpening): TurnSession;
  /**
   * P15, T2: the session of a thread whose turn no process holds any more (its worker died):
   * `suspended` while that turn is parked on a wait, `closed` once it ended (marked dead,
   * stopped while parked). Left alone while a turn of this process runs in the thread.
   */
  settleTurnSession?(thread: ThreadId, status: 'suspended' | 'closed'): Promise<void>;
  /**
   * P9, T2: the ref of the status card a run posted in the thread (its Stop button names the
   * run; `since`, the run's start, may bound the search), read back from the platform: for a run whose process died after the
   * card's post and before the commit of its ref, whose card nothing else can find (P7 never
   * posts twice). Null when none is found or the platform cannot be read; absent where the
   * platform keeps no history.
   */
  findRunCard?(thread: ThreadId, runId: string, since: Date): Promise<string | null>;
  /** P24: the groups people hold (Discord server roles, Slack user groups); absent where there are none. */
  readonly groups?: PlatformGroups | undefined;
}

/** P14: who a streamed reply is posted as, and for whom. */
export interface ReplyStreamOpening {
  as: Extract<Speaker, { kind: 'agent' }>;
  /** The platform account of the person the turn answers (Slack streams to a recipient); null when none. */
  recipientUserId: string | null;
  /** Called once when the platform refused to stream: the reply goes out as an ordinary post, steps on the card. */
  onRefused: () => void;
  /**
   * P15: whether a person has asked this turn to stop. A platform that closed the stream at a
   * person's Stop (Slack's native one) asks before continuing the reply in a new message.
   */
  stopAsked?: () => Promise<boolean>;
  /** T3: the workspace and members the thread is known with (as `postStored`'s): no look-up of the channel. */
  known?: Omit<StoredPost, 'store'>;
}

/** P14: a tool call shown as a step of the streamed reply. */
export interface ReplyStep {
  id: string;
  title: string;
  status: 'in_progress' | 'complete' | 'error';
  /** What the call ended with (`exit 0`), once it ended. */
  details?: string;
}

/**
 * P14: one turn's reply as it streams. Calls return at once; the platform coalesces them to
 * its rate limits and sends them in order, in the thread's order (P7).
 */
export interface ReplyStream {
  /** Whether tool calls show as steps of this stream (Slack's task chunks) rather than card rows. */
  readonly showsSteps: boolean;
  /** The reply grew by `delta`. */
  append(delta: string): void;
  /** A tool call started or ended (a second call with the same id updates the step). */
  step(step: ReplyStep): void;
  /**
   * Ends the stream showing `reply` in full: what was streamed and is a prefix of it stays, the
   * rest follows. Resolves with the first message's ref, or null when nothing was shown (the
   * platform refused, or no text came before the end): the caller then posts the reply.
   */
  finish(reply: string): Promise<string | null>;
  /** The turn ended without a reply (failed, stopped, interrupted): what was shown stays, the stream is closed. */
  abandon(): Promise<void>;
  /**
   * P14, P7: the turn's reply is complete. When nothing of the stream is in the thread yet (its
   * start was still held), the stream ends unopened and resolves true: the caller posts the
   * reply whole, stored with its call (no stream started and stopped around one chunk). False:
   * the stream is shown, and `finish` ends it. Called at once when the reply is known.
   */
  closeIfUnshown?(): Promise<boolean>;
}

/**
 * A message a person wrote, as a platform hands it to the core. Platform markup is already
 * translated: user mentions read `@nickname`, links and formatting are plain text.
 */
export interface InboundMessage {
  platform: Platform;
  /** P6: the platform's id of this delivery's event; a repeat is ignored. */
  eventId: string;
  /** The team or guild the message came from (P1); the terminal names its workspace. */
  workspace: { platform: 'slack' | 'discord'; externalId: string } | { slug: string };
  channelId: string;
  /** The thread the message belongs to; for a top-level message, the thread it starts. */
  thread: ThreadId;
  /** P3: a top-level message, not a reply inside a thread. */
  topLevel: boolean;
  messageRef: string;
  /** The platform account that wrote it (terminal: the member's nickname). */
  senderId: string;
  text: string;
  receivedAt: Date;
  /**
   * P12: the message mentions the app itself (its bot user; on Discord also its managed role).
   * The front end has dropped that mention from `text`.
   */
  summonsApp?: boolean;
  /** P13: the files attached to the message, as the platform described them (fetched at the turn's start). */
  attachments?: readonly AttachmentRef[];
}
