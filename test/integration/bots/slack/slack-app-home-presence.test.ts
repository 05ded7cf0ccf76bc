import { held, waitFor } from '../../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom, fixture } from '../../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../../support/slack-harness';

/** A turn that starts a tool call and keeps it in flight until released. */
function inTool(text: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const script: Script = async function* (request) {
    yield { type: 'thinking' };
    yield { type: 'tool_start', callId: 'build-1', tool: 'bash', summary: 'npm run build' };
    await Promise.race([
      released,
      new Promise<void>((resolve) =>
        request.signal.addEventListener('abort', () => resolve(), { once: true }),
      ),
    ]);
    if (request.signal.aborted) return;
    yield { type: 'tool_end', callId: 'build-1', ok: true };
    yield { type: 'final', text };
  };
  return { script, release: () => release() };
}

describe('A13: App Home shows each agent’s presence from its run events', () => {
  let h: SlackHarness;
  afterEach(() => h.close());

  let homes = 0;
  /** Opens App Home as dana and returns each agent's line of the published view. */
  const openHome = async (): Promise<Record<string, string>> => {
    homes += 1;
    const opened = fixture('app-home-opened');
    const before = h.standIn.views.length;
    expect((await h.deliver({ ...opened, event_id: `Ev0PRESENCE${homes}` })).status).toBe(200);
    await waitFor(async () => h.standIn.views.length > before);
    // The stand-in accepted it (views.publish validated: a home view, typed blocks, ≤ 100).
    expect(h.standIn.okCalls('views.publish')).toHaveLength(before + 1);
    const view = h.standIn.views.at(-1)?.view as { blocks: { type: string; text?: { text: string } }[] };
    const lines: Record<string, string> = {};
    for (const block of view.blocks) {
      const match = /^\*([a-z]+)\* \(/.exec(block.text?.text ?? '');
      if (block.type === 'section' && match?.[1] !== undefined) lines[match[1]] = block.text?.text ?? '';
    }
    return lines;
  };
  const start = async (text: string) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text }));
    return ts;
  };

  it('thinking, running, blocked on approval and done side by side; then all done', async () => {
    const qa = held('tests pass');
    const ceo = held('approved plan');
    const engineer = inTool('built');
    h = await openSlackHarness({
      runner: new ScriptedRunner({
        architect: () => [{ type: 'final', text: 'design ready' }],
        qa: qa.script,
        ceo: ceo.script,
        engineer: engineer.script,
      }),
    });
    const architectTs = await start('@architect sketch the cache');
    await waitFor(async () =>
      h.standIn.inThread(CHANNEL, architectTs).some((m) => m.text === 'design ready'),
    );
    await start('@qa run the tests');
    await start('@ceo approve the plan');
    await start('@engineer build it');
    await qa.started;
    await ceo.started;
    const ceoId = (await h.read((tx) => tx.agents.list(h.local.workspace.id))).find(
      (a) => a.name === 'ceo',
    )?.id;
    const ceoRun = await waitFor(async () => (await h.runs()).find((r) => r.agentId === ceoId) ?? null);
    await h.engine?.requestApproval({
      runId: ceoRun.id,
      action: 'push_to_remote',
      details: { summary: 'push to acme/api main', lines: [] },
    });
    // The engine has seen engineer's tool_start once its card shows the call.
    await waitFor(async () =>
      h.standIn.messages.some((m) => JSON.stringify(m.blocks ?? []).includes('npm run build')),
    );

    const lines = await openHome();
    expect(lines.architect).toMatch(/: idle · :white_check_mark: done/);
    expect(lines.qa).toMatch(/: running · :thought_balloon: thinking/);
    expect(lines.engineer).toMatch(/: running · :gear: running/);
    expect(lines.ceo).toMatch(/ · :lock: blocked on approval/);
    // A13: an agent that never ran shows its live status only.
    expect(lines.librarian).toMatch(/: neverRun( · reports to ceo)?$/);

    qa.release();
    ceo.release();
    engineer.release();
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'succeeded'));
    const after = await openHome();
    for (const agent of ['architect', 'qa', 'engineer', 'ceo'])
      expect(after[agent]).toContain(':white_check_mark: done');
  });
});
