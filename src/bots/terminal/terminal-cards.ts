import { decisionWord } from '../../core/model/approvals/approval-action';
import type {
  ApprovalCard,
  NoteCard,
  OutboundMessage,
  QuestionCard,
  StatusCard,
} from '../../core/ports/chat-platform';
import { decodeTerminalThreadId } from './thread-id';

/** Continuation lines (multi-line text, card rows) sit under the message, four spaces in. */
export const INDENT = '    ';

const STATE_MARKS: Record<StatusCard['state'], string> = {
  working: '⋯',
  done: '✓',
  failed: '✗',
  stopped: '■',
};

/**
 * One message as lines of plain text, its first line starting with `where` (`[2]`): no ANSI,
 * so the screen reads the same in a terminal, a log and a test.
 */
export function renderMessage(where: string, message: OutboundMessage, cardNumber: number | null): string[] {
  const content = message.content;
  switch (content.kind) {
    case 'text': {
      const [first = '', ...rest] = content.text.split('\n');
      const head =
        message.as.kind === 'agent' ? `${where} ${message.as.name}: ${first}` : `${where} · ${first}`;
      return [head, ...indent(rest)];
    }
    case 'status':
      return [statusHeadline(where, content.card), ...statusRows(content.card.rows)];
    case 'note':
      return renderNote(where, content.card, cardNumber);
    case 'approval':
      return [
        approvalHeadline(where, content.card, cardNumber),
        ...indent(content.card.details),
        // E4: an MCP call's arguments (bounded, secrets masked by the core).
        ...indent(content.card.code?.split('\n') ?? []),
        `${INDENT}${approvalOutcome(content.card, cardNumber)}`,
      ];
    case 'question':
      return renderQuestion(where, content.card, cardNumber);
  }
}

/**
 * N13: `[1] question #2 · engineer asks: Which database?`, the options numbered from 1, then
 * how to answer; once answered, the answer and who gave it.
 */
function renderQuestion(where: string, card: QuestionCard, cardNumber: number | null): string[] {
  const [first = '', ...rest] = card.text.split('\n');
  const lines = [`${where} question #${cardNumber ?? '?'} · ${card.agent} asks: ${first}`, ...indent(rest)];
  lines.push(...card.options.map((option, i) => `${INDENT}${i + 1}. ${option}`));
  if (card.status === 'pending') {
    lines.push(`${INDENT}${card.options.length > 0 ? '/answer <n> or /answer <text>' : '/answer <text>'}`);
  } else if (card.status === 'answered') {
    lines.push(
      `${INDENT}answered${card.answeredBy === null ? '' : ` by ${card.answeredBy}`}: ${card.answer ?? ''}`,
    );
  } else {
    // P15: the asking turn was stopped by a person.
    const by = card.stoppedBy === undefined ? '' : `stopped by @${card.stoppedBy}: `;
    lines.push(`${INDENT}${by}no longer waiting for an answer`);
  }
  return lines;
}

/**
 * What an edit prints (P9, N7, G4): the redrawn message marked `↻`. A status card shows only
 * the tool rows added since its last version, and a decided approval only its decision, so a
 * card edited once a second stays readable in a log.
 */
export function renderMessageUpdate(
  where: string,
  previous: OutboundMessage,
  next: OutboundMessage,
  cardNumber: number | null,
): string[] {
  const content = next.content;
  let lines: string[];
  if (content.kind === 'status') {
    const before = previous.content.kind === 'status' ? previous.content.card.rows : [];
    const added = startsWith(content.card.rows, before)
      ? content.card.rows.slice(before.length)
      : content.card.rows;
    lines = [statusHeadline(where, content.card), ...statusRows(added)];
  } else if (content.kind === 'approval' && content.card.status !== 'pending') {
    const card = content.card;
    lines = [`${where} approval #${cardNumber ?? '?'} · ${card.agent} · ${card.action}: ${decision(card)}`];
  } else {
    lines = renderMessage(where, next, cardNumber);
  }
  const [first = '', ...rest] = lines;
  return [`  ↻ ${first}`, ...rest.map((line) => (line === '' ? line : `${INDENT}${line}`))];
}

/** P9: `engineer ⋯ Working on it… (2 tool calls)`, or `engineer ✓ done · Pushed (2 tool calls)`. */
function statusHeadline(where: string, card: StatusCard): string {
  const headline = card.headline.trim();
  let said: string;
  if (card.state === 'working') said = headline || 'Working on it…';
  else if (headline === '' || headline.toLowerCase() === card.state) said = card.state;
  else said = `${card.state} · ${headline}`;
  const calls = card.rows.length;
  const count = calls === 0 ? '' : ` (${calls} tool call${calls === 1 ? '' : 's'})`;
  return `${where} ${card.agent} ${STATE_MARKS[card.state]} ${said}${count}`;
}

function statusRows(rows: readonly string[]): string[] {
  return rows.map((row) => `${INDENT}· ${row}`);
}

/**
 * P4, N5, N7: folded, one row; open, the row and then the whole note. N1–N3: the badge: folded,
 * `↪ [n]` when the source thread is on this screen (`/thread n` goes there); open, the longer
 * form `from qa in “title” ↪ [n]` (plain text when the source is elsewhere or gone).
 */
function renderNote(where: string, card: NoteCard, cardNumber: number | null): string[] {
  const row = `note #${cardNumber ?? '?'} ${card.row}`;
  const source = card.source;
  const parts = source?.thread == null ? null : decodeTerminalThreadId(source.thread);
  const link = parts === null ? '' : ` ↪ [${parts.number}]`;
  if (!card.open) return [`${where} ▸ ${row}${link}`];
  const badge =
    source === undefined
      ? []
      : [`from ${source.sender}${source.title === null ? '' : ` in “${source.title}”`}${link}`];
  return [`${where} ▾ ${row}`, ...indent([...badge, ...card.text.split('\n')])];
}

/** G4: which agent wants to do what; the number is what `/approve n` and `/deny n` take. */
function approvalHeadline(where: string, card: ApprovalCard, cardNumber: number | null): string {
  return `${where} approval #${cardNumber ?? '?'} · ${card.agent} · ${card.action}: ${card.summary}`;
}

function approvalOutcome(card: ApprovalCard, cardNumber: number | null): string {
  if (card.status !== 'pending') return decision(card);
  const n = cardNumber ?? '?';
  // E4: an MCP call's card may also be approved for the rest of the conversation.
  const conversation = card.offersConversation === true ? ` · /approve-conversation ${n}` : '';
  return `/approve ${n}${conversation} · /deny ${n}`;
}

/** G4: the card is updated with the decision and who made it; an expired one counts as denied. */
function decision(card: ApprovalCard): string {
  switch (card.status) {
    case 'pending':
      return 'waiting for a decision';
    case 'expired':
      return 'expired (counts as denied)';
    case 'approved':
    case 'denied': {
      const scope = card.forConversation === true ? ' for this conversation' : '';
      // W1: a routine proposal's card says confirmed / cancelled.
      const word = decisionWord(card.action, card.status).toLowerCase();
      return card.decidedBy === null ? `${word}${scope}` : `${word}${scope} by ${card.decidedBy}`;
    }
  }
}

function indent(lines: readonly string[]): string[] {
  return lines.map((line) => (line.trim() === '' ? '' : `${INDENT}${line}`));
}

function startsWith(rows: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= rows.length && prefix.every((row, i) => rows[i] === row);
}
