import { AppError, NotFoundError } from '../../../src/core/errors';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields, type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/** A2: every table that belongs to a workspace. */
const TENANT_TABLES = [
  'platform_bindings',
  'members',
  'member_tokens',
  'console_sessions',
  'agents',
  'skills',
  'spaces',
  'space_participants',
  'channel_bindings',
  'conversations',
  'messages',
  'runs',
  'guardrail_rules',
  'approvals',
  'questions',
  'outbox',
  'mcp_conversation_grants',
  'mcp_calls',
  'mcp_servers',
  // P24: the platform groups that admit people.
  'access_groups',
  'mcp_server_assignments',
  // E5: MCP servers' OAuth tokens and pending links.
  'mcp_oauth_tokens',
  'mcp_oauth_pending',
  // W1, W2: the spaces' routines and their firings.
  'routines',
  'routine_firings',
];

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return error instanceof AppError ? error.code : `unexpected: ${String(error)}`;
  }
  return 'no error';
};

describe.each(DATABASE_KINDS)('A2 tenant isolation on %s', (kind) => {
  let db: TestDatabase;
  let a: SeededWorkspace;
  let b: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    a = await seedWorkspace(db.database.store, 'a');
    b = await seedWorkspace(db.database.store, 'b');
  });
  afterAll(() => db.dispose());

  it.each(TENANT_TABLES)(
    'a session of workspace A cannot read, update, delete or insert B rows of %s',
    async (table) => {
      const store = db.database.store;
      await store.inWorkspace(a.workspaceId, async (tx) => {
        const seen = await tx.query<{ workspace_id: string }>(`SELECT workspace_id FROM ${table}`);
        expect(seen.length).toBeGreaterThan(0);
        expect(seen.every((r) => r.workspace_id === a.workspaceId)).toBe(true);
        const touch = (verb: 'UPDATE' | 'DELETE', ws: string) =>
          tx.query(
            verb === 'UPDATE'
              ? `UPDATE ${table} SET workspace_id = workspace_id WHERE workspace_id = $1 RETURNING id`
              : `DELETE FROM ${table} WHERE workspace_id = $1 RETURNING id`,
            [ws],
          );
        expect(await touch('UPDATE', b.workspaceId)).toEqual([]);
        expect(await touch('DELETE', b.workspaceId)).toEqual([]);
        // The positive control: the same statement reaches A's own rows.
        expect((await touch('UPDATE', a.workspaceId)).length).toBe(seen.length);
      });

      // Inserting a copy of A's row re-labelled as B's: refused by the policy's WITH CHECK
      // (42501), before any unique or foreign key could refuse it.
      const code = await codeOf(
        store.inWorkspace(a.workspaceId, (tx) =>
          tx.query(
            `INSERT INTO ${table}
           SELECT (jsonb_populate_record(NULL::${table},
                     to_jsonb(t) || jsonb_build_object('id', gen_random_uuid(), 'workspace_id', $1::uuid))).*
             FROM ${table} t LIMIT 1`,
            [b.workspaceId],
          ),
        ),
      );
      expect(code).toBe('forbidden');

      // The system context still sees both workspaces' rows, untouched.
      const counts = await store.transaction((tx) =>
        tx.query<{ ws: string; n: string }>(
          `SELECT workspace_id AS ws, count(*)::text AS n FROM ${table} GROUP BY 1`,
        ),
      );
      expect(counts.map((c) => c.ws).sort()).toEqual([a.workspaceId, b.workspaceId].sort());
    },
  );

  it('a session sees only its own workspace row and cannot create workspaces', async () => {
    const store = db.database.store;
    const seen = await store.inWorkspace(a.workspaceId, (tx) => tx.workspaces.list());
    expect(seen.map((w) => w.id)).toEqual([a.workspaceId]);
    expect(await store.inWorkspace(a.workspaceId, (tx) => tx.workspaces.findById(b.workspaceId))).toBeNull();
    expect(await store.inWorkspace(a.workspaceId, (tx) => tx.workspaces.findBySlug('b'))).toBeNull();
    expect(
      await codeOf(store.inWorkspace(a.workspaceId, (tx) => tx.workspaces.rename(b.workspaceId, 'x'))),
    ).toBe('not_found');
    expect(
      await codeOf(store.inWorkspace(a.workspaceId, (tx) => tx.workspaces.insert({ slug: 'c', name: 'C' }))),
    ).toBe('forbidden');
    // P6: de-duplication is a system-context concern; a tenant session may not touch it.
    expect(
      await codeOf(store.inWorkspace(a.workspaceId, (tx) => tx.processedEvents.record('slack', 'Ev1'))),
    ).toBe('forbidden');
  });

  it('the repositories of a session return nothing of another workspace and change none of it', async () => {
    const store = db.database.store;
    await store.inWorkspace(a.workspaceId, async (tx) => {
      expect(await tx.agents.list(b.workspaceId)).toEqual([]);
      expect(await tx.members.list(b.workspaceId)).toEqual([]);
      expect(await tx.skills.list(b.workspaceId)).toEqual([]);
      expect(await tx.spaces.list(b.workspaceId)).toEqual([]);
      expect(await tx.guardrails.list(b.workspaceId)).toEqual([]);
      expect(await tx.platformBindings.listForWorkspace(b.workspaceId)).toEqual([]);
      expect(await tx.channelBindings.listForWorkspace(b.workspaceId)).toEqual([]);
      expect(await tx.agents.findByName(b.workspaceId, 'b_alice')).toBeNull();
      expect(await tx.members.findByNickname(b.workspaceId, 'b-dana')).toBeNull();
      expect(await tx.platformBindings.find('slack', 'T-b')).toBeNull();
      expect(await tx.channelBindings.find('slack', b.channelId)).toBeNull();
      expect(await tx.spaces.listParticipants(b.spaceId)).toEqual([]);
      expect(await tx.runs.recentForAgents(b.workspaceId, [b.agentId], 5)).toEqual([]);
      expect((await tx.agents.list(a.workspaceId)).map((x) => x.id)).toEqual([a.agentId]);
    });
    const inA = <T>(work: Parameters<typeof store.inWorkspace<T>>[1]) =>
      codeOf(store.inWorkspace(a.workspaceId, work));
    expect(await inA((tx) => tx.agents.update(b.agentId, { title: 'hijacked' }))).toBe('not_found');
    expect(await inA((tx) => tx.members.update(b.memberId, { role: 'viewer' }))).toBe('not_found');
    expect(await inA((tx) => tx.skills.update(b.skillId, { body: 'x' }))).toBe('not_found');
    expect(await inA((tx) => tx.spaces.update(b.spaceId, { context: 'x' }))).toBe('not_found');
    expect(await inA((tx) => tx.spaces.setParticipants(b.spaceId, []))).toBe('not_found');
    expect(await inA((tx) => tx.agents.insert(b.workspaceId, agentFields('intruder')))).toBe('forbidden');
    // P1: the channel and the team stay where they are, and A learns only that they are taken.
    expect(await inA((tx) => tx.channelBindings.bind(a.spaceId, 'slack', b.channelId))).toBe('conflict');
    expect(await inA((tx) => tx.platformBindings.bind(a.workspaceId, 'slack', 'T-b'))).toBe('conflict');

    // E1: another workspace's MCP servers are neither listed, given to a turn, nor changed.
    await store.inWorkspace(a.workspaceId, async (tx) => {
      expect((await tx.mcpServers.list()).map((s) => s.workspaceId)).toEqual([a.workspaceId]);
      expect(await tx.mcpServers.listForWorkspace(b.workspaceId)).toEqual([]);
      expect(await tx.mcpServers.assignments(b.workspaceId)).toEqual([]);
      expect(await tx.mcpServers.forTurn(b.agentId, b.spaceId)).toEqual([]);
      await tx.mcpServers.remove(b.workspaceId, 'tracker');
      expect((await tx.mcpServers.forTurn(a.agentId, a.spaceId)).map((s) => s.name)).toEqual(['tracker']);
    });
    const tracker = {
      name: 'tracker',
      transport: 'http',
      url: 'https://evil.example.com',
      headers: {},
    } as const;
    expect(await inA((tx) => tx.mcpServers.save(b.workspaceId, tracker))).toBe('forbidden');
    expect(await inA((tx) => tx.mcpServers.assign(b.workspaceId, { spaceId: b.spaceId }, ['tracker']))).toBe(
      'not_found',
    );
    expect(
      await inA((tx) => tx.mcpServers.assign(a.workspaceId, { spaceId: b.spaceId }, ['tracker'])),
    ).not.toBe('no error');
    const bServers = await store.inWorkspace(b.workspaceId, (tx) => tx.mcpServers.list());
    expect(bServers.map((s) => s.spec)).toEqual([
      expect.objectContaining({ url: 'https://mcp.example.com/mcp' }),
    ]);
    expect(
      await store.inWorkspace(b.workspaceId, (tx) => tx.mcpServers.forTurn(b.agentId, b.spaceId)),
    ).toHaveLength(1);

    const bAgent = await store.inWorkspace(b.workspaceId, (tx) =>
      tx.agents.findByName(b.workspaceId, 'b_alice'),
    );
    expect(bAgent?.title).toBe('');
    expect(
      await store.inWorkspace(b.workspaceId, (tx) => tx.spaces.listParticipants(b.spaceId)),
    ).toHaveLength(2);
  });

  it('a session reaches none of another workspace’s conversations, messages or runs', async () => {
    const store = db.database.store;
    // A queued run in a lane of B that nothing else holds, so only isolation keeps A from it.
    const bRun = await store.transaction(async (tx) => {
      const conversation = await tx.conversations.insert(b.workspaceId, {
        spaceId: b.spaceId,
        platform: 'terminal',
        threadId: null,
        title: 'quiet',
        ownerAgentId: null,
        createdByAgentId: null,
      });
      return tx.runs.insert({
        workspaceId: b.workspaceId,
        agentId: b.agentId,
        conversationId: conversation.id,
        triggerMessageId: null,
        status: 'queued',
        liveness: 'ok',
        wakeChain: [],
        depth: 1,
        startedByMemberId: null,
        startedByAgentId: null,
        startedAt: null,
        finishedAt: null,
        lastEventAt: null,
        error: null,
      });
    });
    await store.inWorkspace(a.workspaceId, async (tx) => {
      expect(await tx.conversations.findById(b.conversationId)).toBeNull();
      expect(await tx.conversations.findByThread('slack', b.threadId)).toBeNull();
      // O5: the console's batch read returns this workspace's and skips the other's and non-ids.
      const both = await tx.conversations.findByIds([a.conversationId, b.conversationId, 'not-an-id']);
      expect(both.map((c) => c.id)).toEqual([a.conversationId]);
      expect(await tx.conversations.findByIds([])).toEqual([]);
      expect(await tx.messages.findById(b.messageId)).toBeNull();
      expect(await tx.messages.listRecent(b.conversationId, 10)).toEqual([]);
      expect(await tx.messages.lastAgentAuthorId(b.conversationId)).toBeNull();
      expect(await tx.messages.findNoteOfRun(b.runId)).toBeNull();
      expect(await tx.runs.findById(b.runId)).toBeNull();
      expect(await tx.runs.claimNext(b.agentId, bRun.conversationId, new Date())).toBeNull();
      const mine = (runs: { workspaceId: string }[]) => runs.every((r) => r.workspaceId === a.workspaceId);
      const listed = await tx.runs.listByStatus(['queued', 'running']);
      expect(listed.length).toBeGreaterThan(0);
      expect(mine(listed)).toBe(true);
      expect(mine(await tx.runs.listSilentSince(new Date(Date.now() + 60_000)))).toBe(true);
      expect(await tx.members.findByPlatformUser(b.workspaceId, 'slack', 'U-b')).toBeNull();
      // The positive controls: the same calls reach A's own rows.
      expect((await tx.conversations.findByThread('slack', a.threadId))?.id).toBe(a.conversationId);
      expect(await tx.messages.lastAgentAuthorId(a.conversationId)).toBe(a.agentId);
      expect((await tx.messages.findNoteOfRun(a.runId))?.id).toBe(a.noteId);
      expect((await tx.members.findByPlatformUser(a.workspaceId, 'slack', 'U-a'))?.id).toBe(a.memberId);
    });
    const inA = <T>(work: Parameters<typeof store.inWorkspace<T>>[1]) =>
      codeOf(store.inWorkspace(a.workspaceId, work));
    expect(await inA((tx) => tx.runs.update(b.runId, { status: 'failed' }))).toBe('not_found');
    expect(await inA((tx) => tx.runs.update(bRun.id, { status: 'running' }))).toBe('not_found');
    expect(await inA((tx) => tx.conversations.setThreadId(b.conversationId, 'x'))).toBe('not_found');
    expect(await inA((tx) => tx.messages.setPlatformRef(b.messageId, 'x'))).toBe('not_found');
    expect(await inA((tx) => tx.messages.setNoteFoldState(b.noteId, 'folded'))).toBe('not_found');
    expect(await inA((tx) => tx.messages.linkNoteRun(b.noteId, a.runId))).toBe('not_found');
    expect(
      await inA((tx) => tx.spaces.addParticipant(b.spaceId, { kind: 'agent', agentId: a.agentId })),
    ).toBe('not_found');
    expect(
      await inA((tx) =>
        tx.conversations.insert(b.workspaceId, {
          spaceId: b.spaceId,
          platform: 'terminal',
          threadId: null,
          title: 'intruder',
          ownerAgentId: null,
          createdByAgentId: null,
        }),
      ),
    ).toBe('forbidden');
    expect(
      await inA((tx) =>
        tx.messages.insert(b.workspaceId, {
          conversationId: b.conversationId,
          authorKind: 'system',
          authorAgentId: null,
          authorMemberId: null,
          text: 'intruder',
          mentions: { agents: [], members: [] },
          platformMessageRef: null,
          note: null,
        }),
      ),
    ).toBe('forbidden');

    // B's rows are as they were, and B's own session claims its run.
    const seenByB = await store.inWorkspace(b.workspaceId, async (tx) => ({
      run: await tx.runs.findById(b.runId),
      note: await tx.messages.findById(b.noteId),
      claimed: await tx.runs.claimNext(b.agentId, bRun.conversationId, new Date()),
    }));
    expect(seenByB.run?.status).toBe('running');
    expect(seenByB.note?.note?.foldState).toBe('auto');
    expect(seenByB.claimed?.id).toBe(bRun.id);
  });

  it('a session can neither read nor decide another workspace’s approval (G4)', async () => {
    const store = db.database.store;
    const due = new Date(Date.UTC(2026, 0, 1, 12, 30));
    const fields = (runId: string) => ({
      runId,
      action: 'commit' as const,
      details: { summary: 'x', lines: [] },
      requestedAt: due,
      expiresAt: due,
    });
    const decision = (memberId: string) =>
      ({ status: 'approved', decidedByMemberId: memberId, decidedAt: due }) as const;
    // A pending, due approval in each workspace: only isolation keeps A from B's.
    const mine = await store.inWorkspace(a.workspaceId, (tx) =>
      tx.approvals.insert(a.workspaceId, fields(a.runId)),
    );
    const theirs = await store.inWorkspace(b.workspaceId, (tx) =>
      tx.approvals.insert(b.workspaceId, fields(b.runId)),
    );
    await store.inWorkspace(a.workspaceId, async (tx) => {
      expect(await tx.approvals.findById(theirs.id)).toBeNull();
      expect(await tx.approvals.findById(b.approvalId)).toBeNull();
      expect((await tx.approvals.listPendingDue(due)).map((x) => x.id)).toEqual([mine.id]);
      expect(await tx.approvals.decide(theirs.id, decision(a.memberId))).toBeNull();
      // The positive control: the same call reaches A's own approval.
      expect((await tx.approvals.findById(a.approvalId))?.status).toBe('approved');
    });
    const inA = <T>(work: Parameters<typeof store.inWorkspace<T>>[1]) =>
      codeOf(store.inWorkspace(a.workspaceId, work));
    expect(await inA((tx) => tx.approvals.setCardRef(theirs.id, 'x'))).toBe('not_found');
    expect(await inA((tx) => tx.approvals.insert(b.workspaceId, fields(b.runId)))).toBe('forbidden');
    // A2: A's approval can neither hang off B's run nor be decided by B's member, even in the system context.
    for (const attempt of [
      () => store.transaction((tx) => tx.approvals.insert(a.workspaceId, fields(b.runId))),
      () => store.transaction((tx) => tx.approvals.decide(mine.id, decision(b.memberId))),
    ]) {
      expect(await attempt().catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
    }
    // B's approval is as it was and B's own session decides it; A's is still pending.
    const seenByB = await store.inWorkspace(b.workspaceId, async (tx) => ({
      before: await tx.approvals.findById(theirs.id),
      decided: await tx.approvals.decide(theirs.id, decision(b.memberId)),
      mine: await tx.approvals.findById(mine.id),
    }));
    expect(seenByB).toEqual({
      before: theirs,
      decided: expect.objectContaining({ status: 'approved' }),
      mine: null,
    });
    expect((await store.inWorkspace(a.workspaceId, (tx) => tx.approvals.findById(mine.id)))?.status).toBe(
      'pending',
    );
  });

  it('N13: a session can neither read, list nor answer another workspace’s question', async () => {
    const store = db.database.store;
    const at = new Date(Date.UTC(2026, 0, 1, 12, 30));
    const ask = (ws: SeededWorkspace) =>
      store.inWorkspace(ws.workspaceId, (tx) =>
        tx.questions.insert(ws.workspaceId, {
          runId: ws.runId,
          conversationId: ws.conversationId,
          text: 'CSV or JSON?',
          options: ['CSV', 'JSON'],
        }),
      );
    const answer = (memberId: string | null) => ({
      text: 'JSON',
      answeredByMemberId: memberId,
      answeredByAgentId: null,
      answeredAt: at,
    });
    const mine = await ask(a);
    const theirs = await ask(b);
    await store.inWorkspace(a.workspaceId, async (tx) => {
      expect(await tx.questions.findById(theirs.id)).toBeNull();
      expect(await tx.questions.listPending(b.conversationId)).toEqual([]);
      expect(await tx.questions.answer(theirs.id, answer(a.memberId))).toBeNull();
      expect(await tx.questions.cancel(theirs.id)).toBe(false);
      // The positive control: the same calls reach A's own question.
      expect((await tx.questions.listPending(a.conversationId)).map((q) => q.id)).toContain(mine.id);
      expect(await tx.questions.answer(mine.id, answer(a.memberId))).toMatchObject({
        status: 'answered',
        answer: 'JSON',
        options: ['CSV', 'JSON'],
      });
    });
    expect(
      await codeOf(store.inWorkspace(a.workspaceId, (tx) => tx.questions.setCardRef(theirs.id, 'x'))),
    ).toBe('not_found');
    // A2: A's question cannot hang off B's run, even in the system context.
    const crossed = await store
      .transaction((tx) =>
        tx.questions.insert(a.workspaceId, {
          runId: b.runId,
          conversationId: a.conversationId,
          text: 'x',
          options: [],
        }),
      )
      .catch((e: unknown) => e);
    expect(crossed).toBeInstanceOf(NotFoundError);
    expect((await store.inWorkspace(b.workspaceId, (tx) => tx.questions.findById(theirs.id)))?.status).toBe(
      'pending',
    );
  });

  it('a row cannot point into another workspace, even from the system context', async () => {
    // A2: references are (id, workspace_id) pairs; foreign key checks ignore row-level security.
    const error = await db.database.store
      .transaction((tx) =>
        tx.runs.insert({
          workspaceId: a.workspaceId,
          agentId: b.agentId,
          conversationId: a.conversationId,
          triggerMessageId: null,
          status: 'queued',
          liveness: 'ok',
          wakeChain: [],
          depth: 1,
          startedByMemberId: null,
          startedByAgentId: null,
          startedAt: null,
          finishedAt: null,
          lastEventAt: null,
          error: null,
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const participants = await db.database.store
      .transaction((tx) => tx.spaces.setParticipants(a.spaceId, [{ kind: 'member', memberId: b.memberId }]))
      .catch((e: unknown) => e);
    expect(participants).toBeInstanceOf(NotFoundError);
    const system = db.database.store;
    for (const attempt of [
      () => system.transaction((tx) => tx.runs.update(a.runId, { replyMessageId: b.messageId })),
      () => system.transaction((tx) => tx.messages.linkNoteRun(a.noteId, b.runId)),
      () =>
        system.transaction((tx) =>
          tx.messages.insert(a.workspaceId, {
            conversationId: b.conversationId,
            authorKind: 'agent',
            authorAgentId: a.agentId,
            authorMemberId: null,
            text: 'into B',
            mentions: { agents: [], members: [] },
            platformMessageRef: null,
            note: null,
          }),
        ),
      () =>
        system.transaction((tx) =>
          tx.conversations.insert(a.workspaceId, {
            spaceId: b.spaceId,
            platform: 'terminal',
            threadId: null,
            title: 'into B',
            ownerAgentId: null,
            createdByAgentId: null,
          }),
        ),
    ]) {
      expect(await attempt().catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
    }
  });

  it('the tenant role and setting do not outlive the transaction', async () => {
    const store = db.database.store;
    await store.inWorkspace(a.workspaceId, async () => {});
    const [after] = await store.transaction((tx) =>
      tx.query<{ role: string; ws: string | null }>(
        `SELECT current_user AS role, nullif(current_setting('summon.workspace_id', true), '') AS ws`,
      ),
    );
    expect(after?.role).not.toBe('summon_tenant');
    expect(after?.ws).toBeNull();
    expect((await store.transaction((tx) => tx.workspaces.list())).length).toBe(2);
    await expect(store.inWorkspace('not-a-uuid', async () => {})).rejects.toThrow('Not a workspace id');
  });
});
