import { decisionWord } from '../../core/model/approvals/approval-action';
import type {
  ApprovalCard,
  NoteCard,
  OutboundMessage,
  QuestionCard,
  Speaker,
  StatusCard,
} from '../../core/ports/chat-platform';
import { clipLines } from '../../core/text/clip-lines';
import { splitMessage } from '../../core/text/split-message';
import { approvalCheckName } from './check-run-bodies';

/** GitHub refuses a comment body longer than this (characters). */
export const COMMENT_LIMIT = 65_536;
/** Room kept in every part for its header line and the marker. */
const FRAME_ROOM = 1_024;

/**
 * P10: the hidden line every comment Summon writes ends with. With `GITHUB_TOKEN` Summon
 * writes as a person's account, so this marker, not the author, tells its own comments apart.
 */
export const SUMMON_MARKER = '<!-- summon -->';
/** N13: a question card names its question, so a `/answer` comment reaches it. */
const questionMarker = (id: string) => `<!-- summon:question=${id} -->`;
const QUESTION_MARKER = /<!-- summon:question=([A-Za-z0-9_-]{1,100}) -->/;

/** P10: whether a comment body is one Summon wrote. */
export const isSummonComment = (body: string): boolean => body.includes(SUMMON_MARKER);

/** N13: the question a Summon comment is the card of, or null. */
export const questionOf = (body: string): string | null => QUESTION_MARKER.exec(body)?.[1] ?? null;

/**
 * P19: one App posts for every agent, so each comment starts with a header line naming the
 * agent, with its avatar image when it has one; the system speaks as Summon.
 */
export function headerLine(as: Speaker): string {
  if (as.kind === 'system') return '**Summon**';
  const name = escapeMarkdown(as.name);
  if (as.avatarUrl === null) return `**${name}**`;
  return `<img src="${escapeAttribute(as.avatarUrl)}" width="20" height="20" alt="${name}" align="top"> **${name}**`;
}

/** The author a header line names (what people see a comment as), or null when it has none. */
export function authorOf(body: string): string | null {
  const first = body.split('\n', 1)[0] ?? '';
  return /\*\*([^*]+)\*\*/.exec(first)?.[1]?.replaceAll('\\', '') ?? null;
}

/**
 * P7, P19: a message as comment bodies: text split under GitHub's limit without breaking code
 * fences (each part headed), a card as one body so it can be edited in place.
 */
export function commentBodies(message: OutboundMessage): string[] {
  const header = headerLine(message.as);
  const { content } = message;
  if (content.kind !== 'text') return [frame(header, cardText(content), cardMarker(content))];
  return splitMessage(content.text, COMMENT_LIMIT - FRAME_ROOM).map((part) => frame(header, part, ''));
}

/** A message for one person: GitHub has no private messages, so it names them in the thread. */
export const privateBody = (login: string, text: string): string =>
  frame(headerLine({ kind: 'system' }), `@${login} ${text}`, `<!-- summon:to=${login} -->`);

/** Who a message for one person was written to, or null. */
export const privateRecipientOf = (body: string): string | null =>
  /<!-- summon:to=([A-Za-z0-9-]{1,39}) -->/.exec(body)?.[1] ?? null;

/** P14: a streamed reply's part, framed as its final comment will be. */
export const streamedBody = (as: Speaker, text: string): string => frame(headerLine(as), text, '');

/** The text parts a streamed reply is split into (fences closed and reopened at a cut). */
export const splitForGitHub = (text: string): string[] => splitMessage(text, COMMENT_LIMIT - FRAME_ROOM);

const frame = (header: string, text: string, marker: string): string =>
  `${header}\n\n${text}\n\n${marker}${SUMMON_MARKER}`;

function cardMarker(content: Exclude<OutboundMessage['content'], { kind: 'text' }>): string {
  return content.kind === 'question' && content.card.status === 'pending'
    ? questionMarker(content.card.questionId)
    : '';
}

function cardText(content: Exclude<OutboundMessage['content'], { kind: 'text' }>): string {
  switch (content.kind) {
    case 'status':
      return statusText(content.card);
    case 'note':
      return noteText(content.card);
    case 'question':
      return questionText(content.card);
    default:
      return approvalText(content.card);
  }
}

const STATE = { working: '⏳ working', done: '✅ done', failed: '❌ failed', stopped: '⏹ stopped' } as const;

/** P9: headline, then one row per tool call. */
function statusText(card: StatusCard): string {
  const rows = card.rows.map((row) => `- ${escapeMarkdown(row)}`);
  return clipLines([`${STATE[card.state]} · ${escapeMarkdown(card.headline)}`, ...rows], 60_000);
}

/** P4, N7: the row; opened, the note's text below it. */
function noteText(card: NoteCard): string {
  const row = `📝 ${escapeMarkdown(card.row)}`;
  if (!card.open) return row;
  const quoted = card.text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return `${row}\n\n${quoted}`;
}

/** G4: what is asked and its details; decided, the decision and who made it. */
function approvalText(card: ApprovalCard): string {
  const lines = [`🔐 **${escapeMarkdown(card.agent)}** asks: ${escapeMarkdown(card.summary)}`, ''];
  for (const detail of card.details) lines.push(`- ${escapeMarkdown(detail)}`);
  if (card.code !== undefined) lines.push('', '```', card.code.replaceAll('```', "'''"), '```');
  lines.push('', decision(card));
  return lines.join('\n');
}

function decision(card: ApprovalCard): string {
  // Nicknames, not GitHub logins: written without `@`, so nobody on GitHub is notified by mistake.
  const by = card.decidedBy === null ? '' : ` by ${escapeMarkdown(card.decidedBy)}`;
  switch (card.status) {
    case 'pending':
      // P21: a pull request's turn asks on its check run; an issue has none (the web console decides).
      return `_Waiting for an approver: on a pull request, Approve or Deny on its check run “${escapeMarkdown(approvalCheckName(card.agent))}” (Checks tab); on an issue, in Summon’s web console._`;
    case 'approved':
      return `**${decisionWord(card.action, card.status)}**${by}${card.forConversation === true ? ' for this conversation' : ''}.`;
    case 'denied':
      return `**${decisionWord(card.action, card.status)}**${by}.`;
    default:
      return `**${card.status[0]?.toUpperCase()}${card.status.slice(1)}**${by}.`;
  }
}

/** N13: the question and its numbered options; answered, the answer and who gave it. */
function questionText(card: QuestionCard): string {
  const lines = [`❓ **${escapeMarkdown(card.agent)}** asks: ${escapeMarkdown(card.text)}`, ''];
  card.options.forEach((option, i) => {
    lines.push(`${i + 1}. ${escapeMarkdown(option)}`);
  });
  if (card.status === 'pending') {
    lines.push('', 'Answer with a comment: `/answer <number or text>`.');
  } else if (card.status === 'answered') {
    lines.push(
      '',
      `Answered by ${escapeMarkdown(card.answeredBy ?? 'someone')}: ${escapeMarkdown(card.answer ?? '')}`,
    );
  } else {
    lines.push(
      '',
      card.stoppedBy === undefined
        ? 'Cancelled.'
        : `Cancelled: ${escapeMarkdown(card.stoppedBy)} stopped the turn.`,
    );
  }
  return lines.join('\n');
}

const escapeMarkdown = (text: string): string => text.replace(/([\\*_`<>[\]])/g, '\\$1');
const escapeAttribute = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
