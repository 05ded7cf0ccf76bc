import { approvalLabels, decisionWord } from '../../../core/model/approvals/approval-action';
import type {
  ApprovalCard,
  NoteCard,
  OutboundMessage,
  QuestionCard,
  StatusCard,
} from '../../../core/ports/chat-platform';
import { clipLines } from '../../../core/text/clip-lines';
import { splitMessage } from '../../../core/text/split-message';
import { escapeMrkdwn } from './slack-mrkdwn';
import { noteBadge } from './slack-note-badge';

/** Action ids of Summon's buttons; the value of each is only a record id (G4: valid across restarts). */
export const ACTIONS = {
  noteOpen: 'summon_note_open',
  noteFold: 'summon_note_fold',
  approve: 'summon_approve',
  /** E4: "Approve for this conversation" on an MCP call's card. */
  approveConversation: 'summon_approve_conversation',
  deny: 'summon_deny',
  /** P15: Stop on a status card; the value is the run id. */
  stop: 'summon_stop',
} as const;

/** N13: option `n` (from 1) of a question card is the button `summon_answer_<n>`; its value is the question id. */
export const ANSWER_ACTION = /^summon_answer_([0-9]{1,2})$/;
const answerActionId = (option: number) => `summon_answer_${option}`;
/** Slack allows at most 25 elements in an actions block. */
const MAX_OPTION_BUTTONS = 25;

/** Slack's limits (docs: chat.postMessage, Block Kit). chat.update truncates text at 4,000. */
export const SLACK_LIMITS = { text: 40_000, updateText: 4_000, blocks: 50, sectionText: 3_000 } as const;

export type SlackBlock = Record<string, unknown>;
export interface SlackContent {
  /** The notification / fallback text (mrkdwn). */
  text: string;
  blocks?: SlackBlock[];
}

const section = (text: string): SlackBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });
const context = (text: string): SlackBlock => ({ type: 'context', elements: [{ type: 'mrkdwn', text }] });
const button = (text: string, actionId: string, value: string, style?: 'primary' | 'danger'): SlackBlock => ({
  type: 'button',
  text: { type: 'plain_text', text },
  action_id: actionId,
  value,
  ...(style === undefined ? {} : { style }),
});

const clip = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

const STATE_ICON: Record<StatusCard['state'], string> = {
  working: ':hourglass_flowing_sand:',
  done: ':white_check_mark:',
  failed: ':x:',
  stopped: ':octagonal_sign:',
};

/** P9: the status card: a headline and one row per tool call (the newest, if there are many). */
export function statusContent(card: StatusCard): SlackContent {
  const headline = `${STATE_ICON[card.state]} *${escapeMrkdwn(card.agent)}* · ${escapeMrkdwn(card.headline)}`;
  const rows = card.rows.map((row) => `• ${escapeMrkdwn(row)}`);
  const blocks: SlackBlock[] = [section(clip(headline, SLACK_LIMITS.sectionText))];
  if (rows.length > 0) {
    let shown = rows.join('\n');
    while (shown.length > SLACK_LIMITS.sectionText - 40) shown = shown.slice(shown.indexOf('\n') + 1);
    const hidden = rows.length - shown.split('\n').length;
    blocks.push(context(hidden > 0 ? `(${hidden} earlier) \n${shown}` : shown));
  }
  // P15: Stop while the turn runs (the core leaves `stopRunId` out once it has ended).
  if (card.state === 'working' && card.stopRunId !== undefined) {
    blocks.push({ type: 'actions', elements: [button('Stop', ACTIONS.stop, card.stopRunId, 'danger')] });
  }
  const text = [headline, ...rows].join('\n');
  return { text: clip(text, SLACK_LIMITS.updateText - 100), blocks };
}

/**
 * P4, N5–N7: a folded note is its row and an Open button; open, the whole prompt and Fold.
 * N1–N3: the badge sits beside the row (`permalink`: the source thread's, when it exists).
 */
export function noteContent(card: NoteCard, permalink: string | null = null): SlackContent {
  const row = `:memo: ${escapeMrkdwn(card.row)}`;
  const badge = card.source === undefined ? null : noteBadge(card.source, card.open, permalink);
  const rowBlock = context(clip(row, SLACK_LIMITS.sectionText));
  if (badge !== null)
    (rowBlock.elements as unknown[]).push({ type: 'mrkdwn', text: clip(badge, SLACK_LIMITS.sectionText) });
  const blocks: SlackBlock[] = [rowBlock];
  if (card.open) {
    const room = SLACK_LIMITS.blocks - 2;
    const chunks = splitMessage(escapeMrkdwn(card.text), SLACK_LIMITS.sectionText - 100);
    const shown = chunks.slice(0, room);
    blocks.push(...shown.map((chunk) => section(chunk)));
    if (chunks.length > room)
      blocks[blocks.length - 1] = section(`${shown.at(-1) ?? ''}\n_(note shortened)_`);
  }
  blocks.push({
    type: 'actions',
    elements: [
      card.open
        ? button('Fold', ACTIONS.noteFold, card.messageId)
        : button('Open', ACTIONS.noteOpen, card.messageId),
    ],
  });
  const head = badge === null ? row : `${row} · ${badge}`;
  const text = card.open ? `${head}\n${escapeMrkdwn(card.text)}` : head;
  return { text: clip(text, SLACK_LIMITS.updateText - 100), blocks };
}

/**
 * G4, P5: the approval card; pending it carries Approve / Deny (E4: and Approve for this
 * conversation on an MCP call's card, whose arguments show as a code block), decided it says
 * which way and by whom.
 */
export function approvalContent(card: ApprovalCard): SlackContent {
  const title = `:lock: *${escapeMrkdwn(card.agent)}* asks to *${escapeMrkdwn(card.action)}*: ${escapeMrkdwn(card.summary)}`;
  const detailLines = card.details.map((d) => `• ${escapeMrkdwn(d)}`);
  const details = detailLines.join('\n');
  const blocks: SlackBlock[] = [section(clip(title, SLACK_LIMITS.sectionText))];
  // Long details keep their first lines and count the rest (never a bare "…").
  if (details !== '') blocks.push(section(clipLines(detailLines, SLACK_LIMITS.sectionText)));
  // E4: inside a code block only `&`, `<` and `>` need escaping; the core bounded its length.
  const code = card.code === undefined ? '' : `\`\`\`${escapeCode(card.code)}\`\`\``;
  if (code !== '') blocks.push(section(clip(code, SLACK_LIMITS.sectionText)));
  let verdict: string;
  // W1: a routine proposal's card says Confirm / Cancel.
  const labels = approvalLabels(card.action);
  if (card.status === 'pending') {
    verdict = 'Waiting for an owner, admin or approver.';
    blocks.push({
      type: 'actions',
      elements: [
        button(labels.approve, ACTIONS.approve, card.approvalId, 'primary'),
        ...(card.offersConversation === true
          ? [button('Approve for this conversation', ACTIONS.approveConversation, card.approvalId)]
          : []),
        button(labels.deny, ACTIONS.deny, card.approvalId, 'danger'),
      ],
    });
  } else {
    const by = card.decidedBy === null ? '' : ` by @${escapeMrkdwn(card.decidedBy)}`;
    const scope = card.forConversation === true ? ' for this conversation' : '';
    verdict = `${decisionWord(card.action, card.status)}${scope}${by}`;
    blocks.push(context(verdict));
  }
  const text = [title, details, code, verdict].filter((t) => t !== '').join('\n');
  return { text: clip(text, SLACK_LIMITS.updateText - 100), blocks };
}

const escapeCode = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('```', "'''");

/**
 * N13: a question card: the agent's question, its options as buttons while it waits (a reply
 * in the thread answers freely), then the answer and who gave it.
 */
export function questionContent(card: QuestionCard): SlackContent {
  const title = `:question: *${escapeMrkdwn(card.agent)}* asks: ${escapeMrkdwn(card.text)}`;
  const options = card.options.map((option, i) => `${i + 1}. ${escapeMrkdwn(option)}`).join('\n');
  const blocks: SlackBlock[] = [section(clip(title, SLACK_LIMITS.sectionText))];
  if (options !== '') blocks.push(section(clip(options, SLACK_LIMITS.sectionText)));
  let footer: string;
  if (card.status === 'pending') {
    footer =
      card.options.length > 0
        ? 'Pick an option, or reply in this thread to answer in your own words.'
        : 'Reply in this thread to answer.';
    if (card.options.length > 0)
      blocks.push({
        type: 'actions',
        elements: card.options
          .slice(0, MAX_OPTION_BUTTONS)
          .map((option, i) =>
            button(clip(`${i + 1}. ${option}`, 75), answerActionId(i + 1), card.questionId),
          ),
      });
  } else if (card.status === 'answered') {
    const by = card.answeredBy === null ? '' : ` by ${escapeMrkdwn(card.answeredBy)}`;
    footer = `Answered${by}: ${escapeMrkdwn(card.answer ?? '')}`;
  } else {
    // P15: a question of a turn a person stopped says who did.
    footer =
      card.stoppedBy === undefined
        ? 'No longer waiting for an answer.'
        : `Stopped by @${escapeMrkdwn(card.stoppedBy)}: no longer waiting for an answer.`;
  }
  blocks.push(context(clip(footer, SLACK_LIMITS.sectionText)));
  const text = [title, options, footer].filter((t) => t !== '').join('\n');
  return { text: clip(text, SLACK_LIMITS.updateText - 100), blocks };
}

/** The card of a non-text message. */
export function cardContent(
  content: Exclude<OutboundMessage['content'], { kind: 'text' }>,
  notePermalink: string | null = null,
): SlackContent {
  if (content.kind === 'status') return statusContent(content.card);
  if (content.kind === 'note') return noteContent(content.card, notePermalink);
  if (content.kind === 'question') return questionContent(content.card);
  return approvalContent(content.card);
}
