import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { anthropicAgent, COMMIT_COMMAND, COMMITS_ASK_FIRST } from '../../../support/anthropic-agent';
import { type DiscordHarness, openDiscordHarness, visibleText } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { AnthropicStandIn } from '../../../support/stand-ins/anthropic-stand-in';
import type { StoredMessage } from '../../../support/stand-ins/discord/discord-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-DISCORD-APPROVAL-RESUME-91d4';
const EPHEMERAL = 64;

describe('G4, P5: an approval clicked in Discord resumes the waiting action', () => {
  let h: DiscordHarness;
  let anthropic: AnthropicStandIn;

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    h = await openDiscordHarness(anthropicAgent(anthropic, ANTHROPIC_KEY));
    // G1: commits need a person's approval in this workspace.
    await h.inAcme((tx, workspaceId) => tx.guardrails.upsert(workspaceId, COMMITS_ASK_FIRST));
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  const committed = () =>
    stat(path.join(h.agentDir('engineer'), 'committed.txt')).then(
      () => true,
      () => false,
    );
  const cardIn = (asked: StoredMessage) =>
    h.thread(asked).find((m) => (m.embeds[0]?.title ?? '').includes('asks to commit'));
  const button = (card: StoredMessage | undefined, label: string) =>
    card?.components[0]?.components?.find((c) => c.label === label)?.custom_id ?? null;

  it('a member’s click is refused ephemerally and nothing runs; an approver’s edits the card, the commit runs and the reply arrives', async () => {
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
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer commit the fix');

    await waitFor(async () => button(cardIn(asked), 'Approve') !== null, 10_000);
    const card = cardIn(asked);
    if (card === undefined) throw new Error('no approval card');
    expect(card.embeds[0]?.title).toBe('engineer asks to commit');
    expect(visibleText(card)).toContain('Waiting for an owner, admin or approver.');
    const approve = button(card, 'Approve') ?? '';
    // The call waits for the decision: nothing ran, the model was asked once.
    expect(await committed()).toBe(false);
    expect(anthropic.requests).toHaveLength(1);

    // A member may not approve: told ephemerally; the card and the waiting call stay as they are.
    const refused = h.standIn.click(h.people.mo, card, approve);
    await waitFor(async () => refused.followUps.length === 1);
    expect(refused.followUps[0]?.flags).toBe(EPHEMERAL);
    expect(refused.followUps[0]?.content).toMatch(/owner, admin or approver/i);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(button(cardIn(asked), 'Approve')).toBe(approve);
    expect(await committed()).toBe(false);
    expect(anthropic.requests).toHaveLength(1);

    // The approver approves: the card says so without buttons, the command really runs, the turn goes on.
    h.standIn.click(h.people.dana, card, approve);
    await waitFor(async () => visibleText(cardIn(asked) as StoredMessage).includes('Approved by dana'));
    expect(cardIn(asked)?.components).toEqual([]);
    await h.waitInThread(
      asked,
      (m) => m.author.username === 'engineer' && m.content === 'Committed: fix the login bug.',
    );
    expect(await readFile(path.join(h.agentDir('engineer'), 'committed.txt'), 'utf8')).toBe(
      'fix the login bug\n',
    );
    expect(JSON.stringify(anthropic.requests[1]?.body)).toContain('Exit code 0.');
    await waitFor(async () => (await h.runs()).map((r) => r.status).join() === 'succeeded');
  });

  it('a denial edits the card, the command never runs and the agent is told it was refused', async () => {
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'bash', input: { command: COMMIT_COMMAND } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Not committed.'] }] },
    );
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer commit the fix');
    await waitFor(async () => button(cardIn(asked), 'Deny') !== null, 10_000);
    const card = cardIn(asked);
    if (card === undefined) throw new Error('no approval card');
    h.standIn.click(h.people.dana, card, button(card, 'Deny') ?? '');
    await waitFor(async () => visibleText(cardIn(asked) as StoredMessage).includes('Denied by dana'));
    await h.waitInThread(asked, (m) => m.content === 'Not committed.');
    expect(await committed()).toBe(false);
    expect(JSON.stringify(anthropic.requests[1]?.body)).toContain('Refused: a person denied the approval');
  });
});
