import type { AgentFields, SpaceFields } from '../../../src/core/model/records';
import type { SqlStore, SqlStoreTx } from '../../../src/storage/store/sql-store';

export const agentFields = (name: string, overrides: Partial<AgentFields> = {}): AgentFields => ({
  name,
  title: '',
  persona: '',
  systemPrompt: null,
  skills: [],
  adapterId: null,
  modelId: null,
  effort: null,
  contextSize: null,
  silenceTimeoutMinutes: 15,
  reportsToId: null,
  avatarUrl: null,
  command: null,
  ...overrides,
});

export const spaceFields = (name: string, overrides: Partial<SpaceFields> = {}): SpaceFields => ({
  name,
  context: '',
  mode: 'chat',
  autonomy: 'actWithApproval',
  dedicated: false,
  repos: [],
  ...overrides,
});

/** The ids of one row in every workspace-owned table. */
export interface SeededWorkspace {
  workspaceId: string;
  memberId: string;
  agentId: string;
  skillId: string;
  spaceId: string;
  conversationId: string;
  messageId: string;
  runId: string;
  channelId: string;
}

const one = async (tx: SqlStoreTx, sql: string, params: unknown[]): Promise<string> => {
  const [row] = await tx.query<{ id: string }>(`${sql} RETURNING id`, params);
  if (!row) throw new Error(`no row from ${sql}`);
  return row.id;
};

/**
 * A workspace with a row in every table that belongs to one, written in the system context:
 * through the repositories where the port has them, in SQL for the rest.
 */
export const seedWorkspace = (store: SqlStore, slug: string): Promise<SeededWorkspace> =>
  store.transaction(async (tx) => {
    const workspace = await tx.workspaces.insert({ slug, name: slug.toUpperCase() });
    const ws = workspace.id;
    await tx.platformBindings.bind(ws, 'slack', `T-${slug}`);
    const member = await tx.members.insert(ws, {
      nickname: `${slug}-dana`,
      role: 'owner',
      slackUserId: `U-${slug}`,
      discordUserId: null,
    });
    const agent = await tx.agents.insert(ws, agentFields(`${slug}_alice`));
    const skill = await tx.skills.insert(ws, { name: `${slug}-testing`, description: '', body: '' });
    const space = await tx.spaces.insert(ws, spaceFields(`${slug}-backend`));
    await tx.spaces.setParticipants(space.id, [
      { kind: 'agent', agentId: agent.id },
      { kind: 'member', memberId: member.id },
    ]);
    const channelId = `C-${slug}`;
    await tx.channelBindings.bind(space.id, 'slack', channelId);
    await tx.guardrails.upsert(ws, {
      scopeKind: 'workspace',
      scopeId: null,
      action: 'push_to_remote',
      decision: 'ask',
    });
    const conversationId = await one(
      tx,
      `INSERT INTO conversations (workspace_id, space_id, platform, platform_thread_ref, title, owner_agent_id)
       VALUES ($1, $2, 'slack', $3, 'Login bug', $4)`,
      [ws, space.id, `${channelId}:1700000000.000100`, agent.id],
    );
    const messageId = await one(
      tx,
      `INSERT INTO messages (workspace_id, conversation_id, author_kind, author_member_id, text, mentions)
       VALUES ($1, $2, 'person', $3, '@alice fix the login bug', $4)`,
      [ws, conversationId, member.id, JSON.stringify([{ kind: 'agent', id: agent.id }])],
    );
    const run = await tx.runs.insert({
      workspaceId: ws,
      agentId: agent.id,
      conversationId,
      triggerMessageId: messageId,
      status: 'running',
      liveness: 'ok',
      wakeChain: [],
      depth: 1,
      startedByMemberId: member.id,
      startedByAgentId: null,
      startedAt: new Date(),
      finishedAt: null,
      lastEventAt: null,
      error: null,
    });
    await one(
      tx,
      `INSERT INTO approvals (workspace_id, run_id, action, details, expires_at)
       VALUES ($1, $2, 'push_to_remote', '{"branch": "main"}', now() + interval '30 minutes')`,
      [ws, run.id],
    );
    await one(
      tx,
      `INSERT INTO questions (workspace_id, run_id, conversation_id, text) VALUES ($1, $2, $3, 'Which branch?')`,
      [ws, run.id, conversationId],
    );
    await one(
      tx,
      `INSERT INTO outbox (workspace_id, conversation_id, platform, kind, payload) VALUES ($1, $2, 'slack', 'post', '{}')`,
      [ws, conversationId],
    );
    return {
      workspaceId: ws,
      memberId: member.id,
      agentId: agent.id,
      skillId: skill.id,
      spaceId: space.id,
      conversationId,
      messageId,
      runId: run.id,
      channelId,
    };
  });
