import { PrometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics';
import { NOT_GRANTABLE } from '../../../src/core/engine/approvals/conversation-grant';
import { guardCall } from '../../../src/core/engine/tool-kit/guard-call';
import { mcpCallRecorder, runRecordedMcpCall } from '../../../src/core/engine/tool-kit/record-mcp-call';
import type { ToolKitDeps, TurnToolKit } from '../../../src/core/engine/tool-kit/tool-kit-deps';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import { mcpSubjectHash } from '../../../src/core/guardrails/mcp-call-subject';
import type { McpCallSubject } from '../../../src/core/model/mcp/mcp-call';
import type { ApprovalCard } from '../../../src/core/ports/chat-platform';
import type { ToolAuthorization } from '../../../src/core/ports/tool-authorization';
import {
  ENGINE_SETUPS,
  type EngineHarness,
  held,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { parsePrometheusText, sampleValue } from '../../support/scrape-metrics';
import { ScriptedRunner } from '../../support/scripted-runner';

const subject = (args: Record<string, unknown>, over: Partial<McpCallSubject> = {}): McpCallSubject => ({
  server: 'linear',
  tool: 'create_issue',
  arguments: args,
  readOnly: false,
  ...over,
});

describe.each(ENGINE_SETUPS)('E4 every MCP call passes the guardrails, on $name', (setup) => {
  let h: EngineHarness;
  let release: () => void;
  let kitDeps: ToolKitDeps | undefined;
  const metrics = new PrometheusMetrics();

  beforeEach(async () => {
    const turn = held('done');
    release = turn.release;
    // The real tool kit, bound to the real engine; its deps are what the MCP tools' branch calls guardCall with.
    const tools: TurnToolKit = (deps) => {
      kitDeps = deps;
      return createToolKit([])(deps);
    };
    h = await openEngineHarness(setup, new ScriptedRunner({ engineer: turn.script }), {}, { tools, metrics });
    await h.type('@engineer file the bug');
    await turn.started;
  });
  afterEach(async () => {
    release();
    await h.close();
  });

  const actor = (senderId: string) => ({
    platform: 'terminal' as const,
    workspace: { slug: 'default' },
    senderId,
  });
  const ws = () => h.local.workspace.id;

  /** An MCP call of the held turn, through guardCall as the tool kit makes it. */
  const call = async (mcp: McpCallSubject): Promise<ToolAuthorization> => {
    const [run] = await h.runs();
    const agent = await h.read((tx) => tx.agents.findByName(ws(), 'engineer'));
    if (run === undefined || agent === null || kitDeps === undefined) throw new Error('no turn');
    return guardCall(
      kitDeps,
      {
        runId: run.id,
        agent,
        space: h.local.space,
        actions: ['mcp'],
        summary: `${mcp.server}__${mcp.tool}`,
        mcp,
      },
      new AbortController().signal,
    );
  };
  const cards = (): ApprovalCard[] =>
    h
      .thread(1)
      .flatMap((e) =>
        e.kind === 'posted' && e.message.content.kind === 'approval' ? [e.message.content.card] : [],
      );
  const pendingCard = (count: number) =>
    waitFor(async () => {
      const all = cards();
      return all.length === count && all[count - 1]?.status === 'pending' ? (all[count - 1] ?? null) : null;
    });
  const decide = (card: ApprovalCard, verdict: 'approve' | 'approve-conversation' | 'deny', who = 'you') =>
    h.engine.act({ kind: 'approval', approvalId: card.approvalId, verdict }, actor(who));

  it('E4, G4: ask posts a card naming the server, the tool and the masked arguments; Approve lets this call run, once', async () => {
    const asked = call(subject({ title: 'Login bug', api_key: 'sk-live-123' }));
    const card = await pendingCard(1);
    expect(card.action).toBe('mcp');
    expect(card.summary).toBe('engineer wants to call linear__create_issue');
    expect(card.details).toEqual(expect.arrayContaining(['server: linear', 'tool: create_issue']));
    expect(card.code).toBe('{\n  "title": "Login bug",\n  "api_key": "••••"\n}');
    expect(JSON.stringify(h.thread(1))).not.toContain('sk-live-123');
    expect(card.offersConversation).toBe(true);
    const stored = await h.read((tx) => tx.approvals.findById(card.approvalId));
    expect(stored?.subjectHash).toBe(mcpSubjectHash(subject({ title: 'Login bug', api_key: 'sk-live-123' })));

    expect(await decide(card, 'approve')).toEqual({ ok: true });
    expect(await asked).toEqual({
      allowed: true,
      verdict: { decision: 'ask', approvedByMemberId: h.local.member.id },
    });
    expect(cards()[0]).toMatchObject({ status: 'approved', decidedBy: 'you' });
    expect(cards()[0]?.forConversation).toBeUndefined();
    // Approved once: the same call asks again.
    const again = call(subject({ title: 'Login bug', api_key: 'sk-live-123' }));
    const second = await pendingCard(2);
    await decide(second, 'deny');
    expect(await again).toMatchObject({
      allowed: false,
      verdict: { decision: 'ask', approvedByMemberId: null },
    });
  });

  it('E4, G4: Deny refuses the call with the sentence the agent is told', async () => {
    const asked = call(subject({ title: 'x' }));
    const card = await pendingCard(1);
    expect(await decide(card, 'deny')).toEqual({ ok: true });
    expect(await asked).toEqual({
      allowed: false,
      reason:
        'Refused: a person denied the approval for linear__create_issue (or it expired unanswered). Do not retry it; tell the people what you would have done.',
      verdict: { decision: 'ask', approvedByMemberId: null },
    });
  });

  it('E4: approve for this conversation: the same call (any key order) then runs without a card; other arguments ask again', async () => {
    const first = call(subject({ title: 'Login bug', labels: ['bug'], team: 'web' }));
    const card = await pendingCard(1);
    expect(await decide(card, 'approve-conversation')).toEqual({ ok: true });
    expect(await first).toEqual({
      allowed: true,
      verdict: { decision: 'ask', approvedByMemberId: h.local.member.id },
    });
    expect(cards()[0]).toMatchObject({ status: 'approved', decidedBy: 'you', forConversation: true });
    expect(h.screen()).toContain('approved for this conversation by you');

    expect(await call(subject({ team: 'web', labels: ['bug'], title: 'Login bug' }))).toEqual({
      allowed: true,
      verdict: { decision: 'granted', approvedByMemberId: h.local.member.id },
    });
    expect(cards()).toHaveLength(1);

    const other = call(subject({ title: 'Another bug', labels: ['bug'], team: 'web' }));
    const second = await pendingCard(2);
    expect(second.code).toContain('Another bug');
    await decide(second, 'deny');
    expect(await other).toMatchObject({ allowed: false });

    // An explicit deny still holds over the grant (E4, G2).
    await h.read((tx) =>
      tx.guardrails.upsert(ws(), {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'mcp',
        decision: 'deny',
        tool: 'linear__*',
      }),
    );
    expect(await call(subject({ title: 'Login bug', labels: ['bug'], team: 'web' }))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('rule workspace mcp linear__* = deny'),
      verdict: { decision: 'deny', approvedByMemberId: null },
    });
  });

  it('E4, G4, P8: only an owner, admin or approver may approve for the conversation; a non-MCP card cannot be', async () => {
    await h.read((tx) =>
      tx.members.insert(ws(), { nickname: 'val', role: 'viewer', slackUserId: null, discordUserId: null }),
    );
    const asked = call(subject({ title: 'x' }));
    const card = await pendingCard(1);
    expect(await decide(card, 'approve-conversation', 'val')).toEqual({
      ok: false,
      reason: expect.stringMatching(/Your role is viewer.*owner, admin or approver/),
    });
    expect(await h.engine.approvalState(card.approvalId)).toBe('pending');
    const [run] = await h.runs();
    const hash = mcpSubjectHash(subject({ title: 'x' }));
    expect(await h.read((tx) => tx.mcpGrants.find(run?.conversationId ?? '', hash))).toBeNull();
    await decide(card, 'deny');
    await asked;

    const push = await h.engine.requestApproval({
      runId: run?.id ?? '',
      action: 'push_to_remote',
      details: { summary: 'push to acme/api main', lines: [] },
    });
    expect(
      await h.engine.act(
        { kind: 'approval', approvalId: push.id, verdict: 'approve-conversation' },
        actor('you'),
      ),
    ).toEqual({ ok: false, reason: NOT_GRANTABLE });
    expect(await h.engine.approvalState(push.id)).toBe('pending');
  });

  it('E4: with no rule a read-only tool runs without a card; a tool rule decides its own tool only', async () => {
    expect(await call(subject({}, { tool: 'list_issues', readOnly: true }))).toEqual({
      allowed: true,
      verdict: { decision: 'allow', approvedByMemberId: null },
    });
    await h.read((tx) =>
      tx.guardrails.upsert(ws(), {
        scopeKind: 'space',
        scopeId: h.local.space.id,
        action: 'mcp',
        decision: 'allow',
        tool: 'linear__create_issue',
      }),
    );
    expect(await call(subject({ title: 'x' }))).toMatchObject({
      allowed: true,
      verdict: { decision: 'allow' },
    });
    expect(cards()).toHaveLength(0);
  });

  it('O4: each MCP call is recorded with its decision, approver, duration and outcome, and counted', async () => {
    const [run] = await h.runs();
    if (run === undefined || kitDeps === undefined) throw new Error('no turn');
    const asked = call(subject({ title: 'x' }));
    await decide(await pendingCard(1), 'approve');
    const verdict = (await asked).verdict;
    if (verdict === undefined) throw new Error('no verdict');
    const facts = { runId: run.id, workspaceId: ws(), call: subject({}), verdict };
    expect(
      await runRecordedMcpCall(kitDeps, facts, async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { ok: true, output: 'LIN-1' };
      }),
    ).toEqual({ ok: true, output: 'LIN-1' });
    await expect(
      runRecordedMcpCall(kitDeps, { ...facts, call: subject({}, { tool: 'list_issues' }) }, () =>
        Promise.reject(new Error('server gone')),
      ),
    ).rejects.toThrow('server gone');
    // The tool kit's recorder: a refused call, never run, is recorded with duration 0.
    await mcpCallRecorder(kitDeps, { runId: run.id, workspaceId: ws() }).refused(
      subject({}, { tool: 'delete_issue' }),
      { decision: 'deny', approvedByMemberId: null },
    );
    const rows = await h.read((tx) => tx.mcpCalls.listForRun(run.id));
    // Written within the same millisecond they tie on `at`: compared by tool, not by position.
    const byTool = new Map(rows.map((r) => [r.tool, r]));
    expect([...byTool.keys()].sort()).toEqual([
      'linear__create_issue',
      'linear__delete_issue',
      'linear__list_issues',
    ]);
    expect(byTool.get('linear__create_issue')).toMatchObject({
      decision: 'ask',
      approvedByMemberId: h.local.member.id,
      outcome: 'ok',
      durationMs: expect.any(Number),
    });
    // The call slept 50 ms by libuv's loop clock; the recorder reads the wall clock, which can
    // see a timer fire a millisecond early (CI saw 29 for a 30 ms sleep): the margin is that.
    expect(byTool.get('linear__create_issue')?.durationMs).toBeGreaterThanOrEqual(45);
    expect(byTool.get('linear__list_issues')).toMatchObject({ decision: 'ask', outcome: 'error' });
    expect(byTool.get('linear__delete_issue')).toMatchObject({
      decision: 'deny',
      approvedByMemberId: null,
      outcome: 'refused',
      durationMs: 0,
    });
    const f = parsePrometheusText(await metrics.text());
    const labels = { server: 'linear', tool: 'linear__create_issue', decision: 'ask', outcome: 'ok' };
    expect(sampleValue(f, 'summon_mcp_calls_total', labels)).toBe(1);
    expect(
      sampleValue(f, 'summon_mcp_calls_total', { ...labels, tool: 'linear__list_issues', outcome: 'error' }),
    ).toBe(1);
  });
});
