import type { ApprovalVerdict } from '../../../core/model/approvals/approval';
import type { CardAction } from '../../../core/model/card-action';

/** What a button of ours carries: only a record id and the action (cards survive restarts). */
export type ButtonAction =
  | { kind: 'note'; action: 'open' | 'fold'; messageId: string }
  | { kind: 'approval'; verdict: ApprovalVerdict; approvalId: string }
  | { kind: 'answer'; option: number; questionId: string }
  /** P15: Stop on a status card. */
  | { kind: 'stop'; runId: string };

/** Discord's limit for a component's `custom_id`. */
export const CUSTOM_ID_LIMIT = 100;

export function encodeCustomId(button: ButtonAction): string {
  const id =
    button.kind === 'note'
      ? `note:${button.action}:${button.messageId}`
      : button.kind === 'approval'
        ? `approval:${button.verdict}:${button.approvalId}`
        : button.kind === 'answer'
          ? `answer:${button.option}:${button.questionId}`
          : `stop:run:${button.runId}`;
  if (id.length > CUSTOM_ID_LIMIT)
    throw new RangeError(`custom_id over ${CUSTOM_ID_LIMIT} characters: ${id}`);
  return id;
}

/** The button a custom_id names, or null for one that is not ours. */
export function decodeCustomId(customId: string): ButtonAction | null {
  const match = /^(note|approval|answer|stop):([a-z]+(?:-[a-z]+)?|[1-9][0-9]?):([A-Za-z0-9-]{1,80})$/.exec(
    customId,
  );
  const [, kind, verb, id] = match ?? [];
  if (kind === undefined || verb === undefined || id === undefined) return null;
  if (kind === 'note' && (verb === 'open' || verb === 'fold')) return { kind, action: verb, messageId: id };
  // E4: `approve-conversation` approves an MCP call for the rest of its conversation.
  if (kind === 'approval' && (verb === 'approve' || verb === 'approve-conversation' || verb === 'deny'))
    return { kind, verdict: verb, approvalId: id };
  if (kind === 'answer' && /^[0-9]+$/.test(verb)) return { kind, option: Number(verb), questionId: id };
  if (kind === 'stop' && verb === 'run') return { kind, runId: id };
  return null;
}

/** The core's action for a button of ours (N7, G4, N13, P15): decoded once, here. */
export function cardActionOf(button: ButtonAction): CardAction {
  switch (button.kind) {
    case 'note':
      return { kind: 'note', verb: button.action, messageId: button.messageId };
    case 'approval':
      return { kind: 'approval', verdict: button.verdict, approvalId: button.approvalId };
    case 'answer':
      return { kind: 'answer', questionId: button.questionId, answer: String(button.option) };
    case 'stop':
      return { kind: 'stop-run', runId: button.runId };
  }
}
