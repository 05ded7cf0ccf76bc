import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import { mcpApprovalDetails } from '../../../../src/core/guardrails/mcp-call-card';
import { mcpSubjectHash } from '../../../../src/core/guardrails/mcp-call-subject';
import { held, waitFor } from '../../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import { buttonValue, clickPayload } from '../../../support/slack-clicks';
import { CHANNEL, eventFrom, fixture } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

const say =
  (text: string): Script =>
  () => [{ type: 'final', text }];

describe('Slack notes and approval cards with buttons', () => {
  let h: SlackHarness;
  afterEach(() => h.close());

  const start = async (text: string) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text }));
    return ts;
  };
  const noteMessage = (threadTs: string) =>
    h.standIn.inThread(CHANNEL, threadTs).find((m) => JSON.stringify(m.blocks ?? []).includes(':memo:'));
  const noteIsOpen = (threadTs: string) => buttonValue(noteMessage(threadTs), ACTIONS.noteFold) !== null;

  it('N9, P4: a note is open while its turn works and folds (one row, Open button) once it answered', async () => {
    const qa = held('all tests pass');
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: say('@qa please verify'), qa: qa.script }),
    });
    const ts = await start('@engineer fix the login bug');
    await qa.started;
    await waitFor(async () => noteIsOpen(ts));
    expect(JSON.stringify(noteMessage(ts)?.blocks)).toContain('please verify');
    expect(noteMessage(ts)?.username).toBe('engineer');
    qa.release();
    await waitFor(async () => buttonValue(noteMessage(ts), ACTIONS.noteOpen) !== null);
    const folded = noteMessage(ts);
    expect(JSON.stringify(folded?.blocks)).not.toContain('please verify');
    expect(JSON.stringify(folded?.blocks)).toContain('answered below');
    // N6: the reply itself is a normal post.
    expect(
      h.standIn.inThread(CHANNEL, ts).some((m) => m.username === 'qa' && m.text === 'all tests pass'),
    ).toBe(true);
  });

  it('N7: a note a person folded and opened again stays open after its turn answered', async () => {
    const qa = held('verified');
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: say('@qa verify'), qa: qa.script }),
    });
    const ts = await start('@engineer ship it');
    await qa.started;
    await waitFor(async () => noteIsOpen(ts));
    const note = noteMessage(ts);
    if (note === undefined) throw new Error('no note');
    expect((await h.deliver(clickPayload(note, PEOPLE.mia.userId, ACTIONS.noteFold))).status).toBe(200);
    await waitFor(async () => buttonValue(noteMessage(ts), ACTIONS.noteOpen) !== null);
    const foldedNote = noteMessage(ts);
    if (foldedNote === undefined) throw new Error('no note');
    expect((await h.deliver(clickPayload(foldedNote, PEOPLE.mia.userId, ACTIONS.noteOpen))).status).toBe(200);
    await waitFor(async () => noteIsOpen(ts));
    qa.release();
    await waitFor(async () => h.standIn.inThread(CHANNEL, ts).some((m) => m.username === 'qa'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(noteIsOpen(ts)).toBe(true);
  });

  it('G4, P5: a member’s click is refused privately; an approver’s decides, edits the card and removes the buttons — also after a restart', async () => {
    const turn = held('pushed');
    h = await openSlackHarness({ runner: new ScriptedRunner({ engineer: turn.script }) });
    const ts = await start('@engineer push the fix');
    await turn.started;
    const runId = (await h.runs())[0]?.id ?? '';
    const engine = h.engine;
    if (engine === null) throw new Error('no engine');
    const approval = await engine.requestApproval({
      runId,
      action: 'push_to_remote',
      details: { summary: 'push to acme/api main', lines: ['main: 1a2b3c → 4d5e6f'] },
    });
    const card = () =>
      h.standIn
        .inThread(CHANNEL, ts)
        .find((m) => JSON.stringify(m.blocks ?? []).includes('push to acme/api main'));
    await waitFor(async () => card() !== undefined);
    expect(buttonValue(card(), ACTIONS.approve)).toBe(approval.id);
    // As the clicker's Slack still shows it (the stand-in edits its own copy in place).
    const pending = structuredClone(card());
    if (pending === undefined) throw new Error('no card');

    // A member may not approve: told privately, nothing changes.
    expect((await h.deliver(clickPayload(pending, PEOPLE.mia.userId, ACTIONS.approve))).status).toBe(200);
    await waitFor(async () => h.standIn.ephemerals.some((e) => e.user === PEOPLE.mia.userId));
    expect(h.standIn.ephemerals.find((e) => e.user === PEOPLE.mia.userId)?.threadTs).toBe(ts);
    expect(await engine.approvalState(approval.id)).toBe('pending');
    expect(buttonValue(card(), ACTIONS.approve)).toBe(approval.id);

    // The card stays valid across a restart: the button carries only the record id.
    await h.restart();
    expect((await h.deliver(clickPayload(pending, PEOPLE.dana.userId, ACTIONS.approve))).status).toBe(200);
    await waitFor(async () => JSON.stringify(card()?.blocks).includes('Approved by @dana'));
    expect(buttonValue(card(), ACTIONS.approve)).toBeNull();
    expect(buttonValue(card(), ACTIONS.deny)).toBeNull();
    expect(await h.engine?.approvalState(approval.id)).toBe('allow');

    // A second click on the stale card is harmless: refused privately, the decision stands.
    await h.deliver(clickPayload(pending, PEOPLE.dana.userId, ACTIONS.deny));
    await waitFor(async () => h.standIn.ephemerals.some((e) => e.user === PEOPLE.dana.userId));
    expect(await h.engine?.approvalState(approval.id)).toBe('allow');
    turn.release();
  });

  it('E4, G4: an MCP call’s card shows its arguments and a third button; an approver’s “Approve for this conversation” grants the call there', async () => {
    const turn = held('filed');
    h = await openSlackHarness({ runner: new ScriptedRunner({ engineer: turn.script }) });
    const ts = await start('@engineer file the bug');
    await turn.started;
    const [run] = await h.runs();
    const engine = h.engine;
    if (engine === null || run === undefined) throw new Error('no engine');
    const call = {
      server: 'linear',
      tool: 'create_issue',
      arguments: { title: 'Login bug', token: 't0p' },
      readOnly: false,
    };
    const approval = await engine.requestApproval({
      runId: run.id,
      action: 'mcp',
      details: mcpApprovalDetails('engineer', call, 'mcp linear__create_issue needs approval first.'),
      subjectHash: mcpSubjectHash(call),
    });
    const card = () =>
      h.standIn
        .inThread(CHANNEL, ts)
        .find((m) => JSON.stringify(m.blocks ?? []).includes('linear__create_issue'));
    await waitFor(async () => card() !== undefined);
    const blocks = JSON.stringify(card()?.blocks);
    expect(blocks).toContain('```{\\n  \\"title\\": \\"Login bug\\"');
    expect(blocks).not.toContain('t0p');
    expect(buttonValue(card(), ACTIONS.approveConversation)).toBe(approval.id);
    const pending = structuredClone(card());
    if (pending === undefined) throw new Error('no card');

    // A member may not: told privately, nothing changes.
    await h.deliver(clickPayload(pending, PEOPLE.mia.userId, ACTIONS.approveConversation));
    await waitFor(async () => h.standIn.ephemerals.some((e) => e.user === PEOPLE.mia.userId));
    expect(await engine.approvalState(approval.id)).toBe('pending');

    await h.deliver(clickPayload(pending, PEOPLE.dana.userId, ACTIONS.approveConversation));
    await waitFor(async () =>
      JSON.stringify(card()?.blocks).includes('Approved for this conversation by @dana'),
    );
    expect(buttonValue(card(), ACTIONS.approveConversation)).toBeNull();
    expect(await engine.approvalState(approval.id)).toBe('allow');
    const grant = await h.store.inWorkspace(run.workspaceId, (tx) =>
      tx.mcpGrants.find(run.conversationId, mcpSubjectHash(call)),
    );
    expect(grant?.approvalId).toBe(approval.id);
    turn.release();
  });

  it('App Home: agents with live status, approvals waiting with buttons, this month’s usage (O3), bound spaces; a stranger is told how to link', async () => {
    const turn = held('pushed');
    h = await openSlackHarness({ runner: new ScriptedRunner({ engineer: turn.script }) });
    await start('@engineer push the fix');
    await turn.started;
    const runId = (await h.runs())[0]?.id ?? '';
    await h.read((tx) =>
      tx.usage.addToRun(runId, {
        model: 'claude-sonnet-4-6',
        usage: { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: 0.0081,
      }),
    );
    const approval = await h.engine?.requestApproval({
      runId: (await h.runs())[0]?.id ?? '',
      action: 'push_to_remote',
      details: { summary: 'push to acme/api main', lines: [] },
    });
    expect((await h.deliver(fixture('app-home-opened'))).status).toBe(200);
    await waitFor(async () => h.standIn.views.length === 1);
    const home = JSON.stringify(h.standIn.views[0]);
    expect(h.standIn.views[0]?.userId).toBe(PEOPLE.dana.userId);
    // A12: the engineer's turn is in progress.
    expect(home).toMatch(/\*engineer\* \(Software engineer\): (running|blocked)/);
    expect(home).toContain('push to acme/api main');
    expect(home).toContain(`"value":"${approval?.id}"`);
    expect(home).toContain(`<#${CHANNEL}>`);
    expect(home).toContain('"text":"Usage this month"');
    expect(home).toContain('*engineer*: 1,500 tokens · $0.01 (1 run)');

    // G4: a member's Approve on App Home is refused: the home is drawn again with the reason.
    const click = fixture('block-actions-approve');
    const homeClick = {
      ...click,
      user: { ...(click.user as object), id: PEOPLE.mia.userId },
      container: { type: 'view', view_id: 'V0HOME0001' },
      channel: undefined,
      message: undefined,
      view: { id: 'V0HOME0001', type: 'home', blocks: [] },
      actions: [{ ...(click.actions as object[])[0], value: approval?.id }],
    };
    expect((await h.deliver(homeClick)).status).toBe(200);
    await waitFor(async () => h.standIn.views.length === 2);
    expect(h.standIn.views[1]?.userId).toBe(PEOPLE.mia.userId);
    expect(JSON.stringify(h.standIn.views[1])).toContain(':warning:');
    expect(await h.engine?.approvalState(approval?.id ?? '')).toBe('pending');

    const stranger = fixture('app-home-opened');
    await h.deliver({
      ...stranger,
      event_id: 'Ev0HOME00002',
      event: { ...(stranger.event as object), user: 'U0STRANGER' },
    });
    await waitFor(async () => h.standIn.views.length === 3);
    expect(JSON.stringify(h.standIn.views[2])).toContain('link-account');
    turn.release();
  });
});
