import type { ReplyStep } from '../../ports/chat-platform';

/** P9: a call's row on the card: `▸ tool: summary` while it runs, `✓ summary` / `✗ summary` once done. */
export function stepRow(step: ReplyStep): string {
  if (step.status === 'in_progress') return `▸ ${step.title}`;
  return `${step.status === 'complete' ? '✓' : '✗'} ${step.details ?? ''}`.trimEnd();
}
