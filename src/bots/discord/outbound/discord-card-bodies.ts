import type { ApprovalVerdict } from '../../../core/model/approvals/approval';
import { approvalLabels, decisionWord } from '../../../core/model/approvals/approval-action';
import type {
  ApprovalCard,
  NoteCard,
  OutboundMessage,
  QuestionCard,
  StatusCard,
} from '../../../core/ports/chat-platform';
import { clipLines } from '../../../core/text/clip-lines';
import { encodeCustomId } from './custom-id';
import { discordNoteBadge } from './discord-note-badge';

export interface Embed {
  title: string;
  description: string;
  color: number;
}

export interface ActionRow {
  type: 1;
  components: { type: 2; style: 1 | 2 | 3 | 4; label: string; custom_id: string }[];
}

/** Discord's embed limits. */
const EMBED_TITLE_LIMIT = 256;
const EMBED_DESCRIPTION_LIMIT = 4096;
/** Discord's limits: 5 buttons a row, 5 rows a message, 80 characters a label. */
const BUTTONS_PER_ROW = 5;
const MAX_ROWS = 5;
const BUTTON_LABEL_LIMIT = 80;

const COLOURS = { working: 0x5865f2, done: 0x57f287, failed: 0xed4245, stopped: 0x99aab5 } as const;
const STATE_LABEL = { working: 'working', done: 'done', failed: 'failed', stopped: 'stopped' } as const;

/** What a card is in a message body: its content, embeds and buttons. */
export interface CardBody {
  content: string;
  embeds: Embed[];
  components: ActionRow[];
}

/** P4, P5, P9, N7, N13: a card as one message body, so it can be edited in place. */
export function cardBody(content: Exclude<OutboundMessage['content'], { kind: 'text' }>): CardBody {
  switch (content.kind) {
    case 'status':
      return statusBody(content.card);
    case 'note':
      return noteBody(content.card);
    case 'question':
      return questionBody(content.card);
    default:
      return approvalBody(content.card);
  }
}

/** P9: one embed, edited in place: headline, then one row per tool call. */
function statusBody(card: StatusCard): CardBody {
  const rows = card.rows.map((row) => `• ${row}`);
  return {
    content: '',
    embeds: [
      {
        title: clip(`${card.agent} · ${STATE_LABEL[card.state]}`, EMBED_TITLE_LIMIT),
        description: clipLines([card.headline, ...rows], EMBED_DESCRIPTION_LIMIT),
        color: COLOURS[card.state],
      },
    ],
    // P15: Stop while the turn runs (the core leaves `stopRunId` out once it has ended).
    components:
      card.state === 'working' && card.stopRunId !== undefined
        ? [
            {
              type: 1,
              components: [
                {
                  type: 2,
                  style: 4,
                  label: 'Stop',
                  custom_id: encodeCustomId({ kind: 'stop', runId: card.stopRunId }),
                },
              ],
            },
          ]
        : [],
  };
}

/** P4, N5–N9: the row alone when folded; the note's text in an embed when open. */
function noteBody(card: NoteCard): CardBody {
  const button = card.open
    ? {
        label: 'Fold',
        custom_id: encodeCustomId({ kind: 'note', action: 'fold', messageId: card.messageId }),
      }
    : {
        label: 'Open',
        custom_id: encodeCustomId({ kind: 'note', action: 'open', messageId: card.messageId }),
      };
  return {
    content: clip(noteLine(card), 2000),
    embeds: card.open
      ? [{ title: 'Note', description: clip(card.text, EMBED_DESCRIPTION_LIMIT), color: COLOURS.stopped }]
      : [],
    components: [{ type: 1, components: [{ type: 2, style: 2, ...button }] }],
  };
}

/** N5 and N1–N3: the note's row, then its context badge when there is one. */
function noteLine(card: NoteCard): string {
  const badge = card.source === undefined ? null : discordNoteBadge(card.source, card.open);
  return badge === null ? `📝 ${card.row}` : `📝 ${card.row} · ${badge}`;
}

/**
 * G4, P5: Approve / Deny while pending (E4: and Approve for this conversation on an MCP call's
 * card, its arguments in a code block); the decision, which way and who made it afterwards, no
 * buttons.
 */
function approvalBody(card: ApprovalCard): CardBody {
  const pending = card.status === 'pending';
  // W1: a routine proposal's card says Confirm / Cancel.
  const labels = approvalLabels(card.action);
  const scope = card.forConversation === true ? ' for this conversation' : '';
  const verdict = pending
    ? 'Waiting for an owner, admin or approver.'
    : `${decisionWord(card.action, card.status)}${scope}${card.decidedBy === null ? '' : ` by ${card.decidedBy}`}.`;
  // E4: the core bounded the arguments (20 lines, 1,500 characters); a fence inside is broken up.
  const code = card.code === undefined ? '' : `\n\`\`\`json\n${card.code.replaceAll('```', "'''")}\n\`\`\``;
  const button = (style: 1 | 3 | 4, label: string, verdict: ApprovalVerdict) => ({
    type: 2 as const,
    style,
    label,
    custom_id: encodeCustomId({ kind: 'approval', verdict, approvalId: card.approvalId }),
  });
  return {
    content: '',
    embeds: [
      {
        title: clip(`${card.agent} asks to ${card.action.replaceAll('_', ' ')}`, EMBED_TITLE_LIMIT),
        // The verdict always shows; long details keep their first lines and count the rest.
        description: `${clipLines([card.summary, ...card.details], EMBED_DESCRIPTION_LIMIT - verdict.length - code.length - 2)}${code}\n\n${verdict}`,
        color: pending ? COLOURS.working : card.status === 'approved' ? COLOURS.done : COLOURS.failed,
      },
    ],
    components: pending
      ? [
          {
            type: 1,
            components: [
              button(3, labels.approve, 'approve'),
              ...(card.offersConversation === true
                ? [button(1, 'Approve for this conversation', 'approve-conversation')]
                : []),
              button(4, labels.deny, 'deny'),
            ],
          },
        ]
      : [],
  };
}

/**
 * N13: the agent, the question and its numbered options; while pending, one button per option
 * (the custom_id carries only the question id and the option) and a reply in the thread
 * answers in one's own words; afterwards, the answer and who gave it, or that it is no longer
 * waited for. No buttons once it is not pending.
 */
function questionBody(card: QuestionCard): CardBody {
  const options = card.options.map((option, i) => `${i + 1}. ${option}`);
  const footer =
    card.status === 'pending'
      ? card.options.length > 0
        ? 'Pick an option, or reply in this thread to answer in your own words.'
        : 'Reply in this thread to answer.'
      : card.status === 'answered'
        ? `Answered${card.answeredBy === null ? '' : ` by ${card.answeredBy}`}: ${card.answer ?? ''}`
        : card.stoppedBy === undefined
          ? 'No longer waiting for an answer.'
          : `Stopped by @${card.stoppedBy}: no longer waiting for an answer.`; // P15
  const buttons = card.options.slice(0, BUTTONS_PER_ROW * MAX_ROWS).map((option, i) => ({
    type: 2 as const,
    style: 1 as const,
    label: clip(`${i + 1}. ${option}`, BUTTON_LABEL_LIMIT),
    custom_id: encodeCustomId({ kind: 'answer', option: i + 1, questionId: card.questionId }),
  }));
  const rows: ActionRow[] = [];
  for (let at = 0; at < buttons.length; at += BUTTONS_PER_ROW)
    rows.push({ type: 1, components: buttons.slice(at, at + BUTTONS_PER_ROW) });
  return {
    content: '',
    embeds: [
      {
        title: clip(`❓ ${card.agent} asks`, EMBED_TITLE_LIMIT),
        description: clipLines(
          [card.text, ...(options.length > 0 ? ['', ...options] : []), '', footer],
          EMBED_DESCRIPTION_LIMIT,
        ),
        color:
          card.status === 'pending'
            ? COLOURS.working
            : card.status === 'answered'
              ? COLOURS.done
              : COLOURS.stopped,
      },
    ],
    components: card.status === 'pending' ? rows : [],
  };
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
