import type { CardAction } from '../../../core/model/card-action';
import type { PlatformActor } from '../../../core/ports/chat-engine';
import { ACTIONS, ANSWER_ACTION } from '../outbound/slack-cards';
import { encodeSlackThreadId } from '../slack-thread-id';

/** The fields of a `block_actions` payload a click on one of our buttons is read from. */
export interface SlackActionBody {
  team?: { id?: string } | null;
  /** `team_id`: the clicker's team, where `team` is null (an org-wide install's enterprise context). */
  user?: { id?: string; team_id?: string };
  channel?: { id?: string };
  container?: { type?: string; channel_id?: string; message_ts?: string; thread_ts?: string };
  message?: { ts?: string; thread_ts?: string };
  actions?: { action_id?: string; value?: string }[];
}

/** A click on one of our buttons, decoded once: the core's action and who clicked where. */
export interface SlackClick {
  action: CardAction;
  actor: PlatformActor;
  teamId: string;
  /** The channel the card is in; null for a card outside one (App Home). */
  channel: string | null;
  /** The thread the card is in, where a refusal is told; null for a card outside one. */
  thread: string | null;
  /** A click on App Home (G4: an approval there redraws the home instead of a reply). */
  onHome: boolean;
}

const unanchored = (pattern: RegExp) => pattern.source.replace(/^\^|\$$/g, '');

/** Every action id of Summon's buttons (P17: any other is answered as no longer active). */
export const SUMMON_CLICK = new RegExp(
  `^(?:${Object.values(ACTIONS).join('|')}|${unanchored(ANSWER_ACTION)})$`,
);

/**
 * The core's action for a button's action id and value (the value is only a record id, G4:
 * valid across restarts); a string saying why for one that is not ours.
 */
export function cardActionOfButton(actionId: string, value: string): CardAction | string {
  switch (actionId) {
    case ACTIONS.noteOpen:
      return { kind: 'note', verb: 'open', messageId: value };
    case ACTIONS.noteFold:
      return { kind: 'note', verb: 'fold', messageId: value };
    case ACTIONS.approve:
      return { kind: 'approval', verdict: 'approve', approvalId: value };
    case ACTIONS.approveConversation:
      return { kind: 'approval', verdict: 'approve-conversation', approvalId: value };
    case ACTIONS.deny:
      return { kind: 'approval', verdict: 'deny', approvalId: value };
    case ACTIONS.stop:
      return { kind: 'stop-run', runId: value };
  }
  const option = ANSWER_ACTION.exec(actionId)?.[1];
  if (option !== undefined) return { kind: 'answer', questionId: value, answer: option };
  return `Summon has no button ${actionId}.`;
}

/** A click's payload as a `SlackClick`, or why it cannot be read as one of ours. */
export function decodeSlackClick(
  body: SlackActionBody,
): { ok: true; click: SlackClick } | { ok: false; reason: string } {
  const teamId = body.team?.id ?? body.user?.team_id;
  const userId = body.user?.id;
  if (teamId === undefined || userId === undefined)
    return { ok: false, reason: 'The click names no team or user.' };
  const button = body.actions?.[0];
  if (button?.action_id === undefined) return { ok: false, reason: 'The click names no button.' };
  if (button.value === undefined)
    return { ok: false, reason: `The click on ${button.action_id} carries no record id.` };
  const action = cardActionOfButton(button.action_id, button.value);
  if (typeof action === 'string') return { ok: false, reason: action };
  const actor: PlatformActor = {
    platform: 'slack',
    workspace: { platform: 'slack', externalId: teamId },
    senderId: userId,
  };
  return {
    ok: true,
    click: {
      action,
      actor,
      teamId,
      channel: channelOfClick(body),
      thread: threadOfClick(body),
      onHome: body.container?.type === 'view',
    },
  };
}

/** The thread of the message the clicked card is in (its own ts when it is a thread's root). */
function threadOfClick(body: SlackActionBody): string | null {
  const channel = channelOfClick(body);
  const threadTs = body.message?.thread_ts ?? body.container?.thread_ts ?? body.message?.ts;
  return channel === null || threadTs === undefined ? null : encodeSlackThreadId({ channel, threadTs });
}

function channelOfClick(body: SlackActionBody): string | null {
  return body.channel?.id ?? body.container?.channel_id ?? null;
}
