import type { ReplyStep } from '../../../core/ports/chat-platform';
import { agentTextToMrkdwn, type SlackMemberRef } from '../outbound/slack-mrkdwn';

/** P14: what a streamed reply has to send: its text so far, and its tool calls as steps. */
export type Pending = { kind: 'text'; text: string } | { kind: 'step'; step: ReplyStep };

/** Slack cuts a task's title near 256 characters. */
const TITLE_LIMIT = 250;

/** Slack chunks: text as `markdown_text` (M11 mentions, no mass mentions), steps as `task_update`. */
export async function streamChunks(
  items: Pending[],
  membersOf: (text: string) => Promise<readonly SlackMemberRef[]>,
): Promise<Record<string, unknown>[]> {
  const members = await membersOf(textOf(items));
  const chunks: Record<string, unknown>[] = [];
  for (const item of items) {
    if (item.kind === 'step') {
      const { step } = item;
      chunks.push({
        type: 'task_update',
        id: step.id,
        title: step.title.length > TITLE_LIMIT ? `${step.title.slice(0, TITLE_LIMIT - 1)}…` : step.title,
        status: step.status,
        ...(step.details === undefined || step.details === '' ? {} : { details: step.details }),
      });
    } else if (item.text !== '') {
      chunks.push({ type: 'markdown_text', text: agentTextToMrkdwn(item.text, members) });
    }
  }
  return chunks;
}

/** The text of what is pending, steps left out. */
export function textOf(items: Pending[]): string {
  return items.map((i) => (i.kind === 'text' ? i.text : '')).join('');
}

/** Where a long text is cut: after a line end, else a space, else hard. */
export function cutAt(text: string, room: number): number {
  const line = text.lastIndexOf('\n', room - 1);
  if (line > room / 2) return line + 1;
  const space = text.lastIndexOf(' ', room - 1);
  return space > room / 2 ? space + 1 : room;
}

/** The Slack error code behind a failed outbox call (`message_not_in_streaming_state`…). */
export function slackErrorOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { data?: { error?: unknown } } } | null)?.cause;
  const code = cause?.data?.error;
  return typeof code === 'string' ? code : undefined;
}
