import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError } from '../../errors';
import type { MessageRecord } from '../../model/conversation-records';
import type { RunRecord } from '../../model/records';
import type { Store, StoreTx } from '../../ports/store';
import { GroupCommit } from '../../waits/group-commit';

/** Transactions of one kind in flight at once per workspace; the turns that come meanwhile gather. */
const SLOTS = 2;
/** Turns in one transaction at most. */
const MAX_BATCH = 32;

/** A turn's reply, to store before it is shown (P2: under the agent's name). */
export interface ReplyToStore {
  runId: string;
  conversationId: string;
  agentId: string;
  text: string;
}

/** The key a batch orders its lanes by (T3: one lane per agent and conversation). */
export const laneKey = (lane: { agentId: string; conversationId: string }): string =>
  `${lane.agentId}:${lane.conversationId}`;

/** The transactions a turn makes on its way, each of which may share a transaction with other turns'. */
export type TurnWriteKind = 'claim' | 'card' | 'reply' | 'finish';

/** One turn's part of a batch: its statements, in the batch's transaction. */
interface TurnPart {
  work: (tx: StoreTx) => Promise<unknown>;
  /** Its lane's key when `work` takes the lane's lock: a batch takes its lanes' locks in this order. */
  lane: string;
}

/**
 * T3: the transactions every turn makes on its way — the claim with its
 * reads, its status card's ref (with the run read back: P15's first look for a Stop), its reply
 * (the message, and the run naming it) and its finish — run together with other turns' of the
 * same kind and workspace when they come at the same time. A turn with a transaction slot free
 * goes at once, alone (an idle engine waits for nothing); while both slots of its kind are busy
 * the next turns gather and go as one transaction: each turn's `work` issues all its statements
 * in the same tick and only works in memory after their answer, so the store sends them and the
 * COMMIT as one message (`commitWithNextMessage`), one round trip whatever their number; a
 * statement issued after it is refused. Each turn gets its own result, as from a transaction
 * of its own.
 *
 * Locks: a turn's `work` that takes its lane's lock (the claim, the finish) takes it first, and
 * a batch starts its turns in the order of their lanes, so two batches take their common lanes'
 * locks in the same order and never wait for each other in a cycle.
 *
 * A batch the database refuses (nothing stored) is run again turn by turn, so one turn's
 * failure is its own (`GroupCommit`); a turn that fails in memory after its batch committed
 * fails alone. T2: not when the database could not be reached — the store has already retried
 * that, and a batch whose COMMIT may have landed must not run twice — then every turn of the
 * batch gets the error, as it would have alone.
 */
export class TurnWrites {
  private readonly groups = new Map<string, GroupCommit<TurnPart, PromiseSettledResult<unknown>>>();

  constructor(private readonly store: Store) {}

  /**
   * `work` in a transaction in `workspaceId`'s tenant context, shared with other turns' `kind`.
   * `work` issues all its statements before it first awaits (they share the batch's one
   * message, with its COMMIT), and its lane's lock first when it takes one (`lane`: `laneKey`).
   */
  together<T>(
    kind: TurnWriteKind,
    workspaceId: string,
    work: (tx: StoreTx) => Promise<T>,
    lane = '',
  ): Promise<T> {
    return this.group(kind, workspaceId)
      .add({ work, lane })
      .then((outcome) => {
        if (outcome.status === 'rejected') throw outcome.reason;
        return outcome.value as T;
      });
  }

  /** P9, P15: the card's ref stored on the run; the run as it stands after it. */
  storeCardRef(workspaceId: string, runId: string, cardRef: string | null): Promise<RunRecord> {
    return this.together('card', workspaceId, (tx) =>
      tx.runs.updateAndRead(runId, { statusCardRef: cardRef }),
    );
  }

  /** The reply stored as the agent's message and named on its run; resolves to the message's id. */
  storeReply(
    workspaceId: string,
    reply: ReplyToStore,
    /** P7, T2: the outgoing calls that show it (`ChatPlatform.postStored`), in the same commit. */
    alongside?: (tx: StoreTx) => Promise<void>,
  ): Promise<string> {
    return this.together('reply', workspaceId, async (tx) => {
      // T3: the message (its id made here), the run naming it and the calls that show it are
      // all issued in this tick, so the store sends them as one message with the START
      // TRANSACTION and the COMMIT: one round trip, whatever the batch's size.
      const messageId = randomUUID();
      await Promise.all([
        tx.messages.insertOwed(workspaceId, {
          id: messageId,
          conversationId: reply.conversationId,
          authorKind: 'agent',
          authorAgentId: reply.agentId,
          authorMemberId: null,
          text: reply.text,
          mentions: { agents: [], members: [] },
          platformMessageRef: null,
          note: null,
        }),
        tx.runs.update(reply.runId, { replyMessageId: messageId }),
        alongside?.(tx),
      ]);
      return messageId;
    });
  }

  /** The group commit of one kind in one workspace (workspaces are few: each keeps its own). */
  private group(
    kind: TurnWriteKind,
    workspaceId: string,
  ): GroupCommit<TurnPart, PromiseSettledResult<unknown>> {
    const key = `${kind}:${workspaceId}`;
    let group = this.groups.get(key);
    if (group === undefined) {
      group = new GroupCommit({
        write: (parts) => this.store.inWorkspace(workspaceId, (tx) => runParts(tx, parts)),
        slots: SLOTS,
        maxBatch: MAX_BATCH,
        splits: (error) => !(error instanceof ServiceUnavailableError),
      });
      this.groups.set(key, group);
    }
    return group;
  }
}

/**
 * Every part started in one tick, in the order of their lanes; each part's outcome in the parts'
 * order, once every part has settled. T3: their statements are the transaction's last, sent with
 * its COMMIT: a statement that fails there fails that message, so the COMMIT too (the store
 * then throws its error: the batch fails, nothing stored). A part that fails in memory after a
 * committed message fails alone: the others' writes are stored and theirs.
 */
async function runParts(tx: StoreTx, parts: readonly TurnPart[]): Promise<PromiseSettledResult<unknown>[]> {
  tx.commitWithNextMessage();
  const order = parts.map((_, i) => i).sort((a, b) => compare(parts[a]?.lane ?? '', parts[b]?.lane ?? ''));
  const started = new Map<number, Promise<unknown>>();
  for (const i of order) started.set(i, start(tx, parts[i] as TurnPart));
  return Promise.allSettled(parts.map((_, i) => started.get(i)));
}

/** A part's work as a promise, even when it throws before its first await. */
const start = (tx: StoreTx, part: TurnPart): Promise<unknown> => {
  try {
    return part.work(tx);
  } catch (error) {
    return Promise.reject(error);
  }
};

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * T2, P7: the reply a run's turn stored (`TurnWrites.storeReply` names it on the run, in the
 * commit that stores it and the calls that show it); null when it has none, as every run claimed
 * for the first time. Read only for a run that names one: a claim's usual path reads nothing more.
 */
export async function storedReplyOf(
  deps: { store: Store },
  run: Pick<RunRecord, 'id' | 'workspaceId' | 'replyMessageId'>,
): Promise<MessageRecord | null> {
  const { replyMessageId } = run;
  if (replyMessageId === null) return null;
  return deps.store.inWorkspace(run.workspaceId, (tx) => tx.messages.findById(replyMessageId));
}
