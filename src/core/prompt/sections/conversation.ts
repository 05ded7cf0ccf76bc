import type { PromptSection } from '../composed-prompt';
import type { HistoryMessage } from '../prompt-input';
import { section } from './section';

export const CONVERSATION_TITLE = 'Recent conversation';

function authorLabel(message: HistoryMessage): string {
  const { author } = message;
  if (author.kind === 'system') return 'system';
  const label = `${author.name} (${author.kind})`;
  // N1: a note is an agent's prompt, not a person's message; it is labelled so.
  return message.isNote === true ? `note from ${label}` : label;
}

/**
 * One message as author-labelled text. Continuation lines are indented so that a line of a
 * message can never pass for a new author's line.
 */
export function renderHistoryMessage(message: HistoryMessage): string {
  const [first = '', ...rest] = message.text.trim().split(/\r?\n/);
  return [
    `${authorLabel(message)}:${first ? ` ${first}` : ''}`,
    ...rest.map((line) => (line ? `  ${line}` : '')),
  ].join('\n');
}

export function conversationSection(notice: string | null, lines: readonly string[]): PromptSection {
  return section(
    'conversation',
    CONVERSATION_TITLE,
    [...(notice === null ? [] : [notice]), ...lines].join('\n'),
  );
}
