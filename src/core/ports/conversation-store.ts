import type { ConversationRecord, MessageFields, MessageRecord } from '../model/conversation-records';
import type { NoteFoldState } from '../model/message';
import type { Platform } from '../model/platform';
import type { RunRecord } from '../model/records';
import type { RunLiveness, RunStatus } from '../model/run';
import type { UsageCall } from './usage-store';

/** A conversation to insert. */
export type NewConversation = Pick<
  ConversationRecord,
  'spaceId' | 'platform' | 'threadId' | 'title' | 'ownerAgentId' | 'createdByAgentId'
>;

export interface ConversationRepository {
  findById(id: string): Promise<ConversationRecord | null>;
  /** The conversations of these ids that exist (in no order), in one statement. */
  findByIds(ids: readonly string[]): Promise<ConversationRecord[]>;
  findByThread(platform: Platform, threadId: string): Promise<ConversationRecord | null>;
  insert(workspaceId: string, fields: NewConversation): Promise<ConversationRecord>;
  /**
   * T3: `insert` with the id the caller made (routing's new thread), sent with the
   * transaction's next statement (at the latest its commit) and not read back; one the database
   * refuses (a second conversation for the thread, a space of another workspace) fails the
   * transaction then.
   */
  insertOwed(workspaceId: string, fields: NewConversation & { id: string }): Promise<void>;
  setThreadId(id: string, threadId: string): Promise<void>;
}

export interface MessageRepository {
  insert(workspaceId: string, fields: MessageFields): Promise<MessageRecord>;
  /** T3: `insert` with the id the caller made, owed as `ConversationRepository.insertOwed`. */
  insertOwed(workspaceId: string, fields: MessageFields & { id: string }): Promise<void>;
  findById(id: string): Promise<MessageRecord | null>;
  /** The newest `limit` messages of a conversation, oldest first. */
  listRecent(conversationId: string, limit: number): Promise<MessageRecord[]>;
  /**
   * T3: sent with the transaction's next statement (at the latest its commit); a message that
   * is not there fails the transaction with a NotFoundError then.
   */
  setPlatformRef(id: string, platformMessageRef: string): Promise<void>;
  setNoteFoldState(id: string, foldState: NoteFoldState): Promise<void>;
  /** Records the run a note started (stored after the note, which the run names as its trigger). */
  linkNoteRun(noteId: string, runId: string): Promise<void>;
  /** The note that started a run (N9: its fold follows that run). */
  findNoteOfRun(runId: string): Promise<MessageRecord | null>;
  /** M3: the agent that wrote the newest agent message in the conversation. */
  lastAgentAuthorId(conversationId: string): Promise<string | null>;
}

export type RunPatch = Partial<
  Pick<
    RunRecord,
    | 'status'
    | 'liveness'
    | 'startedAt'
    | 'finishedAt'
    | 'lastEventAt'
    | 'error'
    | 'statusCardRef'
    | 'replyMessageId'
  >
>;

/** Runs as the turn engine drives them; extends the roster's `RunRepository`. */
export interface RunLaneRepository {
  findById(id: string): Promise<RunRecord | null>;
  /**
   * T3: sent with the transaction's next statement (at the latest its commit); a run that is
   * not there (or another workspace's, A2) fails the transaction with a NotFoundError then.
   */
  update(id: string, patch: RunPatch): Promise<void>;
  /**
   * `update`, and the run as it stands after it, in one statement (a turn's card ref, its finish).
   * O3, T3: `usage`, a model call's, is added to the run's in the same statement (one row version).
   */
  updateAndRead(id: string, patch: RunPatch, usage?: UsageCall): Promise<RunRecord>;
  /**
   * One turn at a time per (agent, conversation): if no run of that lane is `running`, marks
   * its oldest `queued` run `running` (startedAt = lastEventAt = now) and returns it; else
   * null. Atomic across workers (the lane is locked for the transaction).
   */
  claimNext(agentId: string, conversationId: string, now: Date): Promise<RunRecord | null>;
  /**
   * Whether the lane has a `queued` run. Read while holding the lane's lock (finishing its
   * run): a run queued after this read is claimed by its own job, which waits for the lock.
   */
  hasQueued(agentId: string, conversationId: string): Promise<boolean>;
  /** P15, T2: the id of the lane's oldest `queued` run, or null (a lane freed with no worker on it). */
  oldestQueued(agentId: string, conversationId: string): Promise<string | null>;
  /**
   * Every run in one of these statuses, oldest first (system context: start-up recovery, the
   * queue's command). Indexed for the live ones (`queued`, `running`); finished runs are history.
   */
  listByStatus(statuses: readonly RunStatus[]): Promise<RunRecord[]>;
  /** Runs still `running` whose last event is older than `before` (the watchdog's candidates). */
  listSilentSince(before: Date): Promise<RunRecord[]>;
  /**
   * T2, A12: a run still `running` and still silent since `before` goes back to `queued`
   * (liveness `ok`, last event `now`), in one statement: true when it did. False when another
   * process requeued or claimed it, or its heartbeat came back, since it was found silent.
   */
  requeueIfSilent(id: string, before: Date, now: Date): Promise<boolean>;
}

export type { RunLiveness };
