import { decodeCustomId } from '../../../../src/bots/discord';
import { mcpApprovalDetails } from '../../../../src/core/guardrails/mcp-call-card';
import { mcpSubjectHash } from '../../../../src/core/guardrails/mcp-call-subject';
import { type DiscordHarness, openDiscordHarness, visibleText } from '../../../support/discord-harness';
import { held, waitFor } from '../../../support/engine-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';
import type { StoredMessage } from '../../../support/stand-ins/discord/discord-stand-in';

const EPHEMERAL = 64;

describe('Discord front end: replies, notes and approvals', () => {
  let h: DiscordHarness;
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  const agentReplies = (message: StoredMessage, agent: string) =>
    h
      .thread(message)
      .filter((m) => m.author.username === agent && m.embeds.length === 0 && m.components.length === 0);

  it('M11, P7: @everyone, @here and role pings written by an agent ping nobody; a member it names is pinged', async () => {
    const role = '987654321098765432';
    const text = `Heads up @everyone and @here and <@&${role}>: @dana please review, \`@mo\` is code.`;
    h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: replies(text) }) });
    h.standIn.roles.push(role);
    const asked = h.standIn.say(h.people.mo, h.channel, '@engineer announce the release');
    const reply = await h.waitInThread(asked, (m) => m.content.startsWith('Heads up'));
    expect(reply.content).toBe(
      `Heads up @everyone and @here and <@&${role}>: <@${h.people.dana.id}> please review, \`@mo\` is code.`,
    );
    expect(reply.pinged).toEqual({ everyone: false, users: [h.people.dana.id], roles: [] });
    expect(reply.mention_everyone).toBe(false);
  });

  it('P7: a 5,000-character reply arrives in order, in parts of at most 2,000 characters, code fences intact', async () => {
    const code = Array.from({ length: 90 }, (_, i) => `const line${i} = ${i}; // ${'x'.repeat(10)}`);
    const text = [
      'Here is the fix.',
      'a'.repeat(1000),
      '```ts',
      ...code,
      '```',
      'b'.repeat(1000),
      'The end.',
    ].join('\n');
    expect(text.length).toBeGreaterThan(4500);
    h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: replies(text) }) });
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix it');
    await h.waitInThread(asked, (m) => m.content.endsWith('The end.'));
    const parts = agentReplies(asked, 'engineer').map((m) => m.content);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(2000);
      expect(part.split('\n').filter((line) => line.startsWith('```')).length % 2).toBe(0);
    }
    // Without the fences added at the cuts, the parts are the reply, in order.
    const joined = parts.join('\n').replace(/\n```\n```ts/g, '');
    expect(joined).toBe(text);
  });

  it('P7: a 3,000-character reply with a code block arrives in two well-formed parts', async () => {
    const text = [
      'Before.',
      '```',
      ...Array.from({ length: 100 }, (_, i) => `line ${i} ${'y'.repeat(20)}`),
      '```',
      'After.',
    ].join('\n');
    expect(text.length).toBeGreaterThan(2900);
    expect(text.length).toBeLessThan(3100);
    h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: replies(text) }) });
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer show me');
    await h.waitInThread(asked, (m) => m.content.endsWith('After.'));
    const parts = agentReplies(asked, 'engineer').map((m) => m.content);
    expect(parts).toHaveLength(2);
    expect(parts[0]?.endsWith('\n```')).toBe(true);
    expect(parts[1]?.startsWith('```\n')).toBe(true);
  });

  it('P4, N7: a note between agents is a folded row with an Open button; Open and Fold edit it in place', async () => {
    h = await openDiscordHarness({
      runner: new ScriptedRunner({
        engineer: replies('@qa please check the fix'),
        qa: replies('Looks good.'),
      }),
    });
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
    await h.waitInThread(asked, (m) => m.content === 'Looks good.');
    await h.settled(2);
    const note = await h.waitInThread(asked, (m) => m.content.startsWith('📝') && m.components.length > 0);
    const button = () => note.components[0]?.components?.[0];
    await waitFor(async () => button()?.label === 'Open');
    expect(visibleText(note)).not.toContain('please check the fix');
    const count = h.thread(asked).length;

    const open = h.standIn.click(h.people.mo, note, button()?.custom_id ?? '');
    await waitFor(async () => button()?.label === 'Fold');
    expect(open.callbacks).toEqual([{ type: 6 }]);
    expect(visibleText(note)).toContain('please check the fix');
    expect(decodeCustomId(button()?.custom_id ?? '')).toMatchObject({ kind: 'note', action: 'fold' });

    h.standIn.click(h.people.mo, note, button()?.custom_id ?? '');
    await waitFor(async () => button()?.label === 'Open');
    expect(visibleText(note)).not.toContain('please check the fix');
    expect(h.thread(asked)).toHaveLength(count);
  });

  describe('G4, P5: approval cards', () => {
    let release: () => void;
    beforeEach(async () => {
      const turn = held('pushed');
      release = turn.release;
      h = await openDiscordHarness({ runner: new ScriptedRunner({ engineer: turn.script }) });
    });
    afterEach(() => release());

    it('a member’s click is refused ephemerally and changes nothing; an approver’s click decides and edits the card', async () => {
      const asked = h.standIn.say(h.people.dana, h.channel, '@engineer push the fix');
      const [run] = await waitFor(async () => {
        const runs = await h.runs();
        return runs.length === 1 && runs[0]?.status === 'running' ? runs : null;
      });
      const engine = h.engine;
      if (engine === null || run === undefined) throw new Error('no engine');
      const approval = await engine.requestApproval({
        runId: run.id,
        action: 'push_to_remote',
        details: { summary: 'push 2 commits to acme/api main', lines: ['main: 1a2b3c → 4d5e6f'] },
      });
      // The approval card (the status card has a Stop button too, P15).
      const card = await h.waitInThread(
        asked,
        (m) => m.components.length > 0 && (m.embeds[0]?.title ?? '').includes(' asks to '),
      );
      expect(visibleText(card)).toContain('push 2 commits to acme/api main');
      const [approve, deny] = card.components[0]?.components ?? [];
      expect([approve?.label, deny?.label]).toEqual(['Approve', 'Deny']);
      expect(approve?.custom_id?.length).toBeLessThanOrEqual(100);
      expect(approve?.custom_id).toContain(approval.id);

      const refused = h.standIn.click(h.people.mo, card, approve?.custom_id ?? '');
      await waitFor(async () => refused.followUps.length === 1);
      expect(refused.callbacks).toEqual([{ type: 6 }]);
      expect(refused.followUps[0]?.flags).toBe(EPHEMERAL);
      expect(refused.followUps[0]?.content).toMatch(/owner, admin or approver/i);
      expect(await engine.approvalState(approval.id)).toBe('pending');
      expect(card.components).toHaveLength(1);

      h.standIn.click(h.people.dana, card, approve?.custom_id ?? '');
      await waitFor(async () => card.components.length === 0);
      expect(visibleText(card)).toContain('Approved by dana');
      expect(await engine.approvalState(approval.id)).toBe('allow');
    });

    it('E4: an MCP call’s card shows its arguments and a third button; an approver’s “Approve for this conversation” decides it so', async () => {
      const asked = h.standIn.say(h.people.dana, h.channel, '@engineer file the bug');
      const [run] = await waitFor(async () => {
        const runs = await h.runs();
        return runs.length === 1 && runs[0]?.status === 'running' ? runs : null;
      });
      const engine = h.engine;
      if (engine === null || run === undefined) throw new Error('no engine');
      const call = {
        server: 'linear',
        tool: 'create_issue',
        arguments: { title: 'Login bug', password: 'hunter2' },
        readOnly: false,
      };
      const approval = await engine.requestApproval({
        runId: run.id,
        action: 'mcp',
        details: mcpApprovalDetails('engineer', call, 'mcp linear__create_issue needs approval first.'),
        subjectHash: mcpSubjectHash(call),
      });
      const card = await h.waitInThread(
        asked,
        (m) => m.components.length > 0 && (m.embeds[0]?.title ?? '').includes(' asks to '),
      );
      expect(visibleText(card)).toContain('"title": "Login bug"');
      expect(visibleText(card)).not.toContain('hunter2');
      const buttons = card.components[0]?.components ?? [];
      expect(buttons.map((b) => b.label)).toEqual(['Approve', 'Approve for this conversation', 'Deny']);
      const forConversation = buttons[1]?.custom_id ?? '';
      expect(forConversation.length).toBeLessThanOrEqual(100);
      expect(decodeCustomId(forConversation)).toEqual({
        kind: 'approval',
        verdict: 'approve-conversation',
        approvalId: approval.id,
      });

      const refused = h.standIn.click(h.people.mo, card, forConversation);
      await waitFor(async () => refused.followUps.length === 1);
      expect(refused.followUps[0]?.content).toMatch(/owner, admin or approver/i);
      expect(await engine.approvalState(approval.id)).toBe('pending');

      h.standIn.click(h.people.dana, card, forConversation);
      await waitFor(async () => card.components.length === 0);
      expect(visibleText(card)).toContain('Approved for this conversation by dana');
      expect(await engine.approvalState(approval.id)).toBe('allow');
    });
  });
});
