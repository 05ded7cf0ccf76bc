import { envReference } from '../../../src/core/mcp/env-references';
import type { AgentFields, SpaceFields } from '../../../src/core/model/records';
import type { NewRun } from '../../../src/core/ports/store';
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
  whileRunning: 'steer',
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
  threadId: string;
  /** A person's message that mentions the agent; the run's trigger. */
  messageId: string;
  /** The agent's reply, the run's `replyMessageId`. */
  replyId: string;
  /** A note the agent sent, linked to the run. */
  noteId: string;
  runId: string;
  /** The run's approval: approved by the member, with a card. */
  approvalId: string;
  channelId: string;
}

const one = async (tx: SqlStoreTx, sql: string, params: unknown[]): Promise<string> => {
  const [row] = await tx.query<{ id: string }>(`${sql} RETURNING id`, params);
  if (!row) throw new Error(`no row from ${sql}`);
  return row.id;
};

/**
 * A workspace with a row in every table that belongs to one, written in the system context:
 * through the repositories where the port has them, in SQL for the rest. The run is `running`.
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
    const threadId = `slack:${channelId}:1700000000.000100`;
    const conversation = await tx.conversations.insert(ws, {
      spaceId: space.id,
      platform: 'slack',
      threadId,
      title: 'Login bug',
      ownerAgentId: agent.id,
      createdByAgentId: null,
    });
    const conversationId = conversation.id;
    const message = await tx.messages.insert(ws, {
      conversationId,
      authorKind: 'person',
      authorAgentId: null,
      authorMemberId: member.id,
      text: `@${agent.name} fix the login bug`,
      mentions: { agents: [{ agentId: agent.id, name: agent.name }], members: [] },
      platformMessageRef: '1700000000.000100',
      note: null,
    });
    const messageId = message.id;
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
      statusCardRef: '1700000000.000200',
    });
    // The agent's reply (P9: below its status card) and a note it sent: every column holds a value.
    const reply = await tx.messages.insert(ws, {
      conversationId,
      authorKind: 'agent',
      authorAgentId: agent.id,
      authorMemberId: null,
      text: 'Fixed.',
      mentions: { agents: [], members: [{ memberId: member.id, nickname: member.nickname }] },
      platformMessageRef: '1700000000.000300',
      note: null,
    });
    await tx.runs.update(run.id, { replyMessageId: reply.id });
    // N4: a conversation the agent created (and owns), where the note below came from.
    const digest = await tx.conversations.insert(ws, {
      spaceId: space.id,
      platform: 'slack',
      threadId: null,
      title: 'nightly digest',
      ownerAgentId: agent.id,
      createdByAgentId: agent.id,
    });
    const note = await tx.messages.insert(ws, {
      conversationId,
      authorKind: 'agent',
      authorAgentId: agent.id,
      authorMemberId: null,
      text: 'Please review the fix.',
      mentions: { agents: [], members: [] },
      platformMessageRef: null,
      note: {
        senderAgentId: agent.id,
        senderRelay: 'build-box',
        sourceConversationId: digest.id,
        sourceTitle: digest.title,
        runId: null,
        foldState: 'auto',
      },
    });
    await tx.messages.linkNoteRun(note.id, run.id);
    // G4: the push the run asked about, on its card, approved by the owner: every column holds a value.
    const requestedAt = new Date();
    const approval = await tx.approvals.insert(ws, {
      runId: run.id,
      action: 'push_to_remote',
      details: { summary: 'Push to acme/api main', lines: ['acme/api', 'main: 1a2b3c4 → 5d6e7f8'] },
      requestedAt,
      expiresAt: new Date(requestedAt.getTime() + 30 * 60_000),
    });
    await tx.approvals.setCardRef(approval.id, '1700000000.000400');
    await tx.approvals.decide(approval.id, {
      status: 'approved',
      decidedByMemberId: member.id,
      decidedAt: new Date(),
    });
    // G3, G5: the run's gateway credential and the push it gated.
    await tx.gitCredentials.insert(ws, {
      runId: run.id,
      tokenHash: `sha256-${ws}`,
      repos: ['acme/api'],
      expiresAt: new Date(requestedAt.getTime() + 60 * 60_000),
    });
    await tx.gitPushes.insert(ws, {
      runId: run.id,
      repo: 'acme/api',
      updates: [{ oldId: '1'.repeat(40), newId: '2'.repeat(40), ref: 'refs/heads/main' }],
      decision: 'ask',
      status: 'forwarded',
      approvalId: approval.id,
      reason: 'approved by the owner',
    });
    // T2: the run's checkpoint, parked on its approval: every column holds a value.
    await tx.checkpoints.save(ws, {
      runId: run.id,
      checkpoint: { format: 'anthropic', exchanges: [], round: null, rounds: 0, nudged: false },
      statusCardRef: '1700000000.000300',
      at: new Date(),
    });
    await tx.checkpoints.setApproval(run.id, approval.id);
    // P16: the person's message waiting to join the run.
    await tx.steering.add(ws, { runId: run.id, messageId: message.id, at: new Date() });
    await tx.checkpoints.park(run.id, new Date());
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
    await tx.memberInvites.insert(ws, {
      memberId: member.id,
      codeHash: `hash-of-${slug}`,
      expiresAt: new Date(Date.now() + 60_000),
    });
    // E6: a member's personal token (its hash).
    await tx.memberTokens.insert(ws, { memberId: member.id, tokenHash: `token-hash-of-${slug}` });
    // O5: a console session (its token's hash).
    await tx.consoleSessions.insert(ws, {
      memberId: member.id,
      kind: 'session',
      tokenHash: `console-hash-of-${slug}`,
      csrfToken: `csrf-of-${slug}`,
      role: member.role,
      via: 'slack',
      expiresAt: new Date(Date.now() + 60_000),
    });
    // R1: a key pair, an offer, a pairing with a nonce seen, and the relay settings.
    await tx.relays.keyPair(ws, () => ({ publicKey: `public-${slug}`, privateKey: `private-${slug}` }));
    await tx.relays.insertOffer(ws, { secretHash: `offer-${slug}`, level: 'prompt', expiresAt: new Date() });
    const pairing = await tx.relays.insertPairing(ws, {
      remoteName: `peer-of-${slug}`,
      remoteUrl: 'https://peer.example.com',
      remotePublicKey: 'peer-key',
      remotePairingId: null,
      remoteGrants: 'read',
    });
    await tx.relays.useNonce(ws, pairing.id, `nonce-${slug}`, new Date(), new Date(0));
    await tx.relays.setSettings(ws, {
      acceptRemoteAgentPrompts: true,
      accepted: [{ relay: pairing.remoteName, level: 'prompt' }],
    });
    // E4, O4: an MCP call approved for the conversation, and its record.
    await tx.mcpGrants.grant(ws, {
      conversationId,
      subjectHash: `sha256-${slug}`,
      approvalId: approval.id,
      grantedByMemberId: member.id,
      grantedAt: new Date(),
    });
    await tx.mcpCalls.insert(ws, {
      runId: run.id,
      server: 'linear',
      tool: 'linear__create_issue',
      decision: 'ask',
      approvedByMemberId: member.id,
      durationMs: 42,
      outcome: 'ok',
      at: new Date(),
    });
    // E1: a declared server, given to the space and to the agent.
    await tx.mcpServers.save(ws, {
      name: 'tracker',
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: `Bearer ${envReference('TRACKER_TOKEN')}` },
    });
    await tx.mcpServers.assign(ws, { spaceId: space.id }, ['tracker']);
    await tx.mcpServers.assign(ws, { agentId: agent.id }, ['tracker']);
    // P24: a Discord role and a Slack user group that admit people.
    // W1: a routine of the space, run by its agent.
    const routine = await tx.routines.save(
      { workspaceId: ws, spaceId: space.id, agentId: agent.id },
      {
        name: 'nightly',
        agent: agent.name,
        prompt: 'Summarize the night',
        trigger: { kind: 'schedule', cron: '0 9 * * *', timezone: 'UTC' },
        onMissed: 'runOnce',
        budget: null,
        paused: false,
      },
      new Date('2030-01-01T09:00:00Z'),
    );
    // W2: one firing of it.
    await tx.routines.claimFiring({
      workspaceId: ws,
      routineId: routine.id,
      scheduledFor: new Date('2029-12-31T09:00:00Z'),
      firedAt: new Date('2029-12-31T09:00:01Z'),
      missed: [],
      outcome: 'skipped',
      reason: null,
    });
    // P22, P23: a pull request the agent opened from the conversation, and a CI failure that woke it.
    const pull = await tx.pullRequests.insert({
      workspaceId: ws,
      conversationId,
      agentId: agent.id,
      runId: run.id,
      repo: `acme/${slug}`,
      number: 1,
      headSha: 'a1b2c3d4e5f6',
      title: 'Fix it',
      url: `https://github.com/acme/${slug}/pull/1`,
    });
    await tx.pullRequests.claimFailureWake(pull, 'a1b2c3d4e5f6');
    await tx.accessGroups.replace(ws, [
      { group: { platform: 'discord', kind: 'role', id: '123456789012345678' }, role: 'member' },
      { group: { platform: 'slack', kind: 'usergroup', id: 'S0123ABCD' }, role: 'approver' },
    ]);
    // E5: a server's client registration, the member's and the workspace's tokens, a pending link.
    await tx.mcpOAuth.saveClient(ws, 'linear', `sealed-client-${slug}`);
    for (const memberId of [member.id, null]) {
      await tx.mcpOAuth.saveTokens(
        ws,
        { server: 'linear', memberId },
        { sealed: `sealed-tokens-${slug}`, expiresAt: new Date() },
      );
    }
    await tx.mcpOAuth.insertPending(ws, {
      server: 'linear',
      serverUrl: 'https://mcp.linear.example/mcp',
      memberId: member.id,
      stateHash: `state-${slug}`,
      sealedVerifier: `sealed-verifier-${slug}`,
      expiresAt: new Date(Date.now() + 60_000),
    });
    // O4: an event of the audit log.
    await tx.audit.append(ws, {
      kind: 'member_added',
      actor: { kind: 'operator', id: null, name: 'operator' },
      subject: `member ${member.nickname}`,
      where: 'cli',
    });
    return {
      workspaceId: ws,
      memberId: member.id,
      agentId: agent.id,
      skillId: skill.id,
      spaceId: space.id,
      conversationId,
      threadId,
      messageId,
      replyId: reply.id,
      noteId: note.id,
      runId: run.id,
      approvalId: approval.id,
      channelId,
    };
  });

/**
 * A queued run of the seeded agent in the seeded thread, triggered by `triggerMessageId` and
 * started by the seeded member, as routing queues one (M20: depth 1); not inserted.
 */
export const queuedRun = (seeded: SeededWorkspace, triggerMessageId: string): NewRun => ({
  workspaceId: seeded.workspaceId,
  agentId: seeded.agentId,
  conversationId: seeded.conversationId,
  triggerMessageId,
  status: 'queued',
  liveness: 'ok',
  wakeChain: [seeded.agentId],
  depth: 1,
  startedByMemberId: seeded.memberId,
  startedByAgentId: null,
  startedAt: null,
  finishedAt: null,
  lastEventAt: null,
  error: null,
});
