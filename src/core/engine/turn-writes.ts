import { ServiceUnavailableError } from '../errors';
import type { RunRecord } from '../model/records';
import type { Store } from '../ports/store';
import { GroupCommit } from '../waits/group-commit';

/** Transactions of one kind in flight at once per workspace; items waiting meanwhile gather. */
const SLOTS = 2;
/** Turns' writes in one transaction at most. */
const MAX_BATCH = 32;

/** A turn's status card, posted: its ref to store on the run (P9). */
interface CardRef {
  runId: string;
  cardRef: string | null;
}

/** A turn's reply, to store before it is shown (P2: under the agent's name). */
export interface ReplyToStore {
  runId: string;
  conversationId: string;
  agentId: string;
  text: string;
}

/**
 * T3 (issue 12, item 5): the writes every turn makes on its way — its status card's ref (with
 * the run read back: P15's first look for a Stop) and its reply (the message, and the run
 * naming it) — stored together with other turns' of the same workspace when they come at the
 * same time. A write with a transaction slot free goes at once, alone (an idle engine waits
 * for nothing); while both slots are busy the next ones gather and go as one transaction: one
 * message with their statements and one COMMIT, whatever their number. Each turn gets its own
 * result, as from a transaction of its own.
 *
 * A batch the database refuses is written again turn by turn, so one turn's failure is its
 * own (`GroupCommit`). T2: not when the database could not be reached — the store has already
 * retried that, and a batch whose COMMIT may have landed must not be written twice — then
 * every turn of the batch gets the error, as it would have alone.
 */
export class TurnWrites {
  private readonly cards = new Map<string, GroupCommit<CardRef, RunRecord>>();
  private readonly replies = new Map<string, GroupCommit<ReplyToStore, string>>();

  constructor(private readonly store: Store) {}

  /** P9, P15: the card's ref stored on the run; the run as it stands after it. */
  storeCardRef(workspaceId: string, runId: string, cardRef: string | null): Promise<RunRecord> {
    return this.batches(this.cards, workspaceId, (items) =>
      this.store.inWorkspace(workspaceId, (tx) =>
        // Asked in one tick: one message, with the START TRANSACTION (T3).
        Promise.all(items.map((item) => tx.runs.updateAndRead(item.runId, { statusCardRef: item.cardRef }))),
      ),
    ).add({ runId, cardRef });
  }

  /** The reply stored as the agent's message and named on its run; resolves to the message's id. */
  storeReply(workspaceId: string, reply: ReplyToStore): Promise<string> {
    return this.batches(this.replies, workspaceId, (items) =>
      this.store.inWorkspace(workspaceId, (tx) =>
        Promise.all(
          items.map(async (item) => {
            // The inserts in one message; each run's update goes with the COMMIT (T3).
            const stored = await tx.messages.insert(workspaceId, {
              conversationId: item.conversationId,
              authorKind: 'agent',
              authorAgentId: item.agentId,
              authorMemberId: null,
              text: item.text,
              mentions: { agents: [], members: [] },
              platformMessageRef: null,
              note: null,
            });
            await tx.runs.update(item.runId, { replyMessageId: stored.id });
            return stored.id;
          }),
        ),
      ),
    ).add(reply);
  }

  /** The workspace's group commit of one kind of write (workspaces are few: each keeps its own). */
  private batches<I, O>(
    groups: Map<string, GroupCommit<I, O>>,
    workspaceId: string,
    write: (items: readonly I[]) => Promise<O[]>,
  ): GroupCommit<I, O> {
    let group = groups.get(workspaceId);
    if (group === undefined) {
      group = new GroupCommit({
        write,
        slots: SLOTS,
        maxBatch: MAX_BATCH,
        splits: (error) => !(error instanceof ServiceUnavailableError),
      });
      groups.set(workspaceId, group);
    }
    return group;
  }
}
