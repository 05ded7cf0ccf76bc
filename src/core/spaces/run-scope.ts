import type { ConversationRecord } from '../model/conversation-records';
import type { RunRecord, SpaceRecord } from '../model/records';
import type { Store, StoreTx } from '../ports/store';

/**
 * A run with the conversation it works in and that conversation's space: what the gateway's
 * credential covers (G3: the space's repositories), what a pull request may target (G1), and
 * where a line about the run is posted. Null fields: the conversation or space is gone.
 */
export interface RunScope {
  run: RunRecord;
  conversation: ConversationRecord | null;
  space: SpaceRecord | null;
}

/** The run's scope read inside `tx` (with the caller's own writes in the same transaction); null when there is no such run. */
export async function readRunScopeIn(tx: StoreTx, runId: string): Promise<RunScope | null> {
  const run = await tx.runs.findById(runId);
  if (run === null) return null;
  const conversation = await tx.conversations.findById(run.conversationId);
  const space =
    conversation === null
      ? null
      : ((await tx.spaces.list(run.workspaceId)).find((s) => s.id === conversation.spaceId) ?? null);
  return { run, conversation, space };
}

/** The run's scope in one transaction of its own. */
export function readRunScope(store: Store, runId: string): Promise<RunScope | null> {
  return store.transaction((tx) => readRunScopeIn(tx, runId));
}

/** The repositories ("owner/name") of the run's space; none without a space. */
export const scopeRepos = (scope: RunScope | null): string[] => scope?.space?.repos ?? [];
