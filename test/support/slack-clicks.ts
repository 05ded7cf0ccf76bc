import { fixture } from './slack-delivery';
import type { StoredSlackMessage } from './stand-ins/slack-web-api-stand-in';

/** The value of the button with this action id on a posted message, if it has one. */
export function buttonValue(message: StoredSlackMessage | undefined, actionId: string): string | null {
  for (const block of (message?.blocks ?? []) as {
    type?: string;
    elements?: { action_id?: string; value?: string }[];
  }[]) {
    if (block.type !== 'actions') continue;
    const button = block.elements?.find((e) => e.action_id === actionId);
    if (button?.value !== undefined) return button.value;
  }
  return null;
}

/** A `block_actions` payload (recorded shape) for a click by `userId` on a button of `message`. */
export function clickPayload(
  message: StoredSlackMessage,
  userId: string,
  actionId: string,
): Record<string, unknown> {
  const value = buttonValue(message, actionId);
  if (value === null) throw new Error(`message ${message.ts} has no ${actionId} button`);
  const recorded = fixture('block-actions-approve');
  const action = (recorded.actions as Record<string, unknown>[])[0];
  return {
    ...recorded,
    user: { ...(recorded.user as object), id: userId },
    container: {
      ...(recorded.container as object),
      message_ts: message.ts,
      channel_id: message.channel,
      thread_ts: message.threadTs ?? message.ts,
    },
    channel: { id: message.channel, name: 'general' },
    message: {
      ...(recorded.message as object),
      ts: message.ts,
      thread_ts: message.threadTs ?? message.ts,
      blocks: message.blocks,
    },
    actions: [{ ...action, action_id: actionId, value, action_ts: `${Date.now() / 1000}` }],
  };
}
