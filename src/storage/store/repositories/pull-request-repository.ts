import type { EntityManager } from 'typeorm';
import type {
  PullRequestChecks,
  PullRequestRecord,
  PullRequestRepository,
  PullRequestState,
} from '../../../core/ports/pull-request-store';
import { queryRecords } from '../query-records';

interface PullRequestDbRow {
  id: string;
  workspace_id: string;
  conversation_id: string;
  agent_id: string;
  run_id: string | null;
  repo: string;
  number: number;
  head_sha: string | null;
  title: string;
  url: string;
  state: PullRequestState;
  checks: PullRequestChecks;
  card_ref: string | null;
}

const COLUMNS =
  'id, workspace_id, conversation_id, agent_id, run_id, repo, number, head_sha, title, url, state, checks, card_ref';

const toRecord = (row: PullRequestDbRow): PullRequestRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  conversationId: row.conversation_id,
  agentId: row.agent_id,
  runId: row.run_id,
  repo: row.repo,
  number: Number(row.number),
  headSha: row.head_sha,
  title: row.title,
  url: row.url,
  state: row.state,
  checks: row.checks,
  cardRef: row.card_ref,
});

const PATCH_COLUMNS = {
  headSha: 'head_sha',
  title: 'title',
  state: 'state',
  checks: 'checks',
  cardRef: 'card_ref',
} as const;

/** P22, P23: pull requests agents opened, and the CI failures that woke them (raw SQL). */
export const pullRequestRepository = (manager: EntityManager): PullRequestRepository => ({
  async insert(fields) {
    const [row] = await queryRecords<PullRequestDbRow>(
      manager,
      `INSERT INTO conversation_pull_requests (workspace_id, conversation_id, agent_id, run_id, repo, number, head_sha, title, url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [
        fields.workspaceId,
        fields.conversationId,
        fields.agentId,
        fields.runId,
        fields.repo.toLowerCase(),
        fields.number,
        fields.headSha,
        fields.title,
        fields.url,
      ],
    );
    if (row === undefined) throw new Error('pull request insert returned no row');
    return toRecord(row);
  },
  async find(repo, number) {
    const [row] = await queryRecords<PullRequestDbRow>(
      manager,
      `SELECT ${COLUMNS} FROM conversation_pull_requests WHERE repo = $1 AND number = $2`,
      [repo.toLowerCase(), number],
    );
    return row === undefined ? null : toRecord(row);
  },
  async newestOpenOfThread(platform, threadId) {
    // P21: the newest open one when a conversation opened several (ties: the higher number).
    const [row] = await queryRecords<{ repo: string; number: number }>(
      manager,
      `SELECT pull.repo, pull.number FROM conversation_pull_requests pull
       JOIN conversations conversation ON conversation.id = pull.conversation_id
       WHERE conversation.platform = $1 AND conversation.platform_thread_ref = $2 AND pull.state = 'open'
       ORDER BY pull.created_at DESC, pull.number DESC LIMIT 1`,
      [platform, threadId],
    );
    return row === undefined ? null : { repo: row.repo, number: Number(row.number) };
  },
  async findByHead(repo, headSha) {
    const rows = await queryRecords<PullRequestDbRow>(
      manager,
      `SELECT ${COLUMNS} FROM conversation_pull_requests WHERE repo = $1 AND head_sha = $2 ORDER BY number`,
      [repo.toLowerCase(), headSha],
    );
    return rows.map(toRecord);
  },
  async update(id, patch) {
    const entries = Object.entries(patch).filter(([, value]) => value !== undefined);
    if (entries.length === 0) return;
    const sets = entries.map(([key], i) => `${PATCH_COLUMNS[key as keyof typeof PATCH_COLUMNS]} = $${i + 2}`);
    await queryRecords(manager, `UPDATE conversation_pull_requests SET ${sets.join(', ')} WHERE id = $1`, [
      id,
      ...entries.map(([, value]) => value),
    ]);
  },
  async claimFailureWake(pull, headSha) {
    const rows = await queryRecords(
      manager,
      `INSERT INTO pull_request_failure_wakes (pull_request_id, workspace_id, head_sha) VALUES ($1, $2, $3)
       ON CONFLICT (pull_request_id, head_sha) DO NOTHING RETURNING pull_request_id`,
      [pull.id, pull.workspaceId, headSha],
    );
    return rows.length === 1;
  },
  async setFailureWakeRun(pullRequestId, headSha, runId) {
    await queryRecords(
      manager,
      'UPDATE pull_request_failure_wakes SET run_id = $3 WHERE pull_request_id = $1 AND head_sha = $2',
      [pullRequestId, headSha, runId],
    );
  },
});
