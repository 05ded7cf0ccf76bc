import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import { anthropicAgent, COMMIT_COMMAND, COMMITS_ASK_FIRST } from '../../../support/anthropic-agent';
import { waitFor } from '../../../support/engine-harness';
import { buttonValue, clickPayload } from '../../../support/slack-clicks';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';
import { AnthropicStandIn } from '../../../support/stand-ins/anthropic-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-SLACK-APPROVAL-RESUME-77c1';

describe('G4, P5: an approval clicked in Slack resumes the waiting action', () => {
  let h: SlackHarness;
  let anthropic: AnthropicStandIn;

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    h = await openSlackHarness(anthropicAgent(anthropic, ANTHROPIC_KEY));
    // G1: commits need a person's approval in this workspace.
    await h.read((tx) => tx.guardrails.upsert(h.local.workspace.id, COMMITS_ASK_FIRST));
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
  });

  const committed = () =>
    stat(path.join(h.agentDir('engineer'), 'committed.txt')).then(
      () => true,
      () => false,
    );

  it('a member’s click is refused privately and nothing runs; an approver’s edits the card, the commit runs and the reply arrives', async () => {
    anthropic.script(
      {
        kind: 'stream',
        blocks: [
          { type: 'text', chunks: ['Committing the fix.'] },
          { type: 'tool_use', name: 'bash', input: { command: COMMIT_COMMAND } },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Committed: fix the login bug.'] }] },
    );
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text: '@engineer commit the fix' }));

    const card = () =>
      h.standIn.inThread(CHANNEL, ts).find((m) => JSON.stringify(m.blocks ?? []).includes(':lock:'));
    await waitFor(async () => buttonValue(card(), ACTIONS.approve) !== null);
    const pending = structuredClone(card());
    if (pending === undefined) throw new Error('no approval card');
    expect(JSON.stringify(pending.blocks)).toContain('*engineer* asks to *commit*');
    // The call waits for the decision: nothing ran, the model was asked once.
    expect(await committed()).toBe(false);
    expect(anthropic.requests).toHaveLength(1);

    // A member may not approve: told privately, the card and the waiting call stay as they are.
    expect((await h.deliver(clickPayload(pending, PEOPLE.mia.userId, ACTIONS.approve))).status).toBe(200);
    await waitFor(async () => h.standIn.ephemerals.some((e) => e.user === PEOPLE.mia.userId));
    expect(h.standIn.ephemerals.find((e) => e.user === PEOPLE.mia.userId)?.text).toMatch(
      /owner|admin|approver/i,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(buttonValue(card(), ACTIONS.approve)).not.toBeNull();
    expect(await committed()).toBe(false);
    expect(anthropic.requests).toHaveLength(1);

    // The owner approves: the card says so without buttons, the command really runs, the turn goes on.
    expect((await h.deliver(clickPayload(pending, PEOPLE.dana.userId, ACTIONS.approve))).status).toBe(200);
    await waitFor(async () => JSON.stringify(card()?.blocks).includes('Approved by @dana'));
    expect(buttonValue(card(), ACTIONS.approve)).toBeNull();
    await waitFor(async () =>
      h.standIn
        .inThread(CHANNEL, ts)
        .some((m) => m.username === 'engineer' && m.text === 'Committed: fix the login bug.'),
    );
    expect(await readFile(path.join(h.agentDir('engineer'), 'committed.txt'), 'utf8')).toBe(
      'fix the login bug\n',
    );
    expect(JSON.stringify(anthropic.requests[1]?.body)).toContain('Exit code 0.');
    // The run is marked succeeded just after its reply is posted.
    await waitFor(async () => (await h.runs()).map((r) => r.status).join() === 'succeeded');
  });

  it('a denial edits the card, the command never runs and the agent is told it was refused', async () => {
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'bash', input: { command: COMMIT_COMMAND } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Not committed.'] }] },
    );
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(eventFrom('message-channel', { ts, text: '@engineer commit the fix' }));
    const card = () =>
      h.standIn.inThread(CHANNEL, ts).find((m) => JSON.stringify(m.blocks ?? []).includes(':lock:'));
    await waitFor(async () => buttonValue(card(), ACTIONS.deny) !== null);
    const pending = structuredClone(card());
    if (pending === undefined) throw new Error('no approval card');
    expect((await h.deliver(clickPayload(pending, PEOPLE.dana.userId, ACTIONS.deny))).status).toBe(200);
    await waitFor(async () => JSON.stringify(card()?.blocks).includes('Denied by @dana'));
    await waitFor(async () => h.standIn.inThread(CHANNEL, ts).some((m) => m.text === 'Not committed.'));
    expect(await committed()).toBe(false);
    expect(JSON.stringify(anthropic.requests[1]?.body)).toContain('Refused: a person denied the approval');
  });
});
