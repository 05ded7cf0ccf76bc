import {
  cardActionOfButton,
  decodeSlackClick,
  type SlackActionBody,
  SUMMON_CLICK,
} from '../../../../src/bots/slack/inbound/slack-click-decoder';
import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';

const click = (actionId: string, value: string | undefined, extra: Partial<SlackActionBody> = {}) => ({
  team: { id: 'T1' },
  user: { id: 'U1' },
  channel: { id: 'C0123ABC' },
  message: { ts: '1.000200', thread_ts: '1.000100' },
  actions: [value === undefined ? { action_id: actionId } : { action_id: actionId, value }],
  ...extra,
});

describe('Slack clicks decoded once into the core’s action', () => {
  it('N7, G4, E4, N13, P15: each of our buttons names one action and its record id', () => {
    expect(cardActionOfButton(ACTIONS.noteOpen, 'm-1')).toEqual({
      kind: 'note',
      verb: 'open',
      messageId: 'm-1',
    });
    expect(cardActionOfButton(ACTIONS.noteFold, 'm-1')).toEqual({
      kind: 'note',
      verb: 'fold',
      messageId: 'm-1',
    });
    expect(cardActionOfButton(ACTIONS.approve, 'a-1')).toEqual({
      kind: 'approval',
      verdict: 'approve',
      approvalId: 'a-1',
    });
    expect(cardActionOfButton(ACTIONS.approveConversation, 'a-1')).toEqual({
      kind: 'approval',
      verdict: 'approve-conversation',
      approvalId: 'a-1',
    });
    expect(cardActionOfButton(ACTIONS.deny, 'a-1')).toEqual({
      kind: 'approval',
      verdict: 'deny',
      approvalId: 'a-1',
    });
    expect(cardActionOfButton('summon_answer_12', 'q-1')).toEqual({
      kind: 'answer',
      questionId: 'q-1',
      answer: '12',
    });
    expect(cardActionOfButton(ACTIONS.stop, 'r-1')).toEqual({ kind: 'stop-run', runId: 'r-1' });
  });

  it('P17: an action id that is not ours is refused with the reason, and left to the unknown-click listener', () => {
    for (const other of ['summon_answer_', 'summon_answer_123', 'summon_approve_old', 'other_app']) {
      expect(cardActionOfButton(other, 'x')).toBe(`Summon has no button ${other}.`);
      expect(SUMMON_CLICK.test(other)).toBe(false);
    }
    for (const ours of [...Object.values(ACTIONS), 'summon_answer_1', 'summon_answer_25']) {
      expect(SUMMON_CLICK.test(ours)).toBe(true);
    }
  });

  it('a click carries the clicker, the card’s channel and thread, and whether it was on App Home', () => {
    expect(decodeSlackClick(click(ACTIONS.stop, 'r-1'))).toEqual({
      ok: true,
      click: {
        action: { kind: 'stop-run', runId: 'r-1' },
        actor: { platform: 'slack', workspace: { platform: 'slack', externalId: 'T1' }, senderId: 'U1' },
        teamId: 'T1',
        channel: 'C0123ABC',
        thread: 'slack:C0123ABC:1.000100',
        onHome: false,
      },
    });
    const home = decodeSlackClick(
      click(ACTIONS.approve, 'a-1', { channel: {}, message: {}, container: { type: 'view' } }),
    );
    expect(home).toMatchObject({ ok: true, click: { channel: null, thread: null, onHome: true } });
  });

  it('A2: without `team` (an org-wide install), the clicker’s own team is the click’s', () => {
    const org = click(ACTIONS.stop, 'r-1', { team: null, user: { id: 'U1', team_id: 'T2' } });
    expect(decodeSlackClick(org)).toMatchObject({
      ok: true,
      click: { teamId: 'T2', actor: { workspace: { platform: 'slack', externalId: 'T2' } } },
    });
  });

  it('a malformed click is refused with a clear reason', () => {
    expect(decodeSlackClick(click(ACTIONS.stop, 'r-1', { team: null }))).toEqual({
      ok: false,
      reason: 'The click names no team or user.',
    });
    expect(decodeSlackClick({ ...click(ACTIONS.stop, 'r-1'), actions: [] })).toEqual({
      ok: false,
      reason: 'The click names no button.',
    });
    expect(decodeSlackClick(click(ACTIONS.stop, undefined))).toEqual({
      ok: false,
      reason: 'The click on summon_stop carries no record id.',
    });
    expect(decodeSlackClick(click('summon_unknown', 'x'))).toEqual({
      ok: false,
      reason: 'Summon has no button summon_unknown.',
    });
  });
});
