import type { App } from '@slack/bolt';
import { FORM_NO_LONGER_ACTIVE, NO_LONGER_ACTIVE } from '../../../core/commands/unknown-interaction';
import type { ChatPlatform } from '../../../core/ports/chat-platform';
import type { Logger } from '../../../core/ports/logger';
import { encodeSlackThreadId } from '../slack-thread-id';
import { SUMMON_CLICK } from './slack-click-decoder';

export const UNKNOWN_SHORTCUT = 'Summon has no such shortcut. Try `/summon help`.';
export const unknownCommand = (command: string) =>
  `Summon does not know ${command}: its command is \`/summon\` (try \`/summon help\`).`;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const notOneOf = (known: RegExp) => new RegExp(`^(?!(?:${known.source.replace(/^\^|\$$/g, '')})$)`);

interface UnknownActionBody {
  team?: { id?: string } | null;
  user?: { id?: string };
  channel?: { id?: string };
  container?: { channel_id?: string; message_ts?: string; thread_ts?: string };
  message?: { ts?: string; thread_ts?: string };
  actions?: { action_id?: string; url?: string }[];
}

/**
 * P17: whatever Slack sends that no listener of ours answers (a button of a card from an older
 * version, a form, a shortcut, another app's command routed here) is acknowledged at once, with a
 * sentence where the person can be told, never left to Bolt's 3-second timeout and Slack's error.
 * Registered after the listeners it complements; the constraints exclude what they answer.
 */
export function registerUnknownInteractions(
  app: App,
  deps: {
    platform: ChatPlatform;
    logger: Logger;
    commands: readonly string[];
    /** The front end's clicks still at work after their ack (awaited at close). */
    inFlight: Set<Promise<void>>;
  },
): void {
  const log = deps.logger.child({ component: 'slack' });
  /**
   * Over HTTP (`processBeforeResponse`) Slack gets its answer only once the listener returns: the
   * sentence (through the thread's outbox queue, which may wait out a 429) follows the ack.
   */
  const afterAck = (work: () => Promise<void>) => {
    const running = work().catch((error: unknown) =>
      log.warn({ err: String(error) }, 'could not tell the clicker'),
    );
    deps.inFlight.add(running);
    void running.then(() => deps.inFlight.delete(running));
  };

  app.action({ action_id: notOneOf(SUMMON_CLICK) }, async ({ ack, body }) => {
    await ack();
    const b = body as UnknownActionBody;
    const action = b.actions?.[0];
    // A link button still reports its click; the browser has already opened the link.
    if (action?.url !== undefined) return;
    log.info({ actionId: action?.action_id, user: b.user?.id }, 'a click on a button Summon no longer knows');
    const channel = b.channel?.id ?? b.container?.channel_id;
    const threadTs = b.message?.thread_ts ?? b.container?.thread_ts ?? b.message?.ts;
    const userId = b.user?.id;
    if (channel === undefined || threadTs === undefined || userId === undefined) return;
    afterAck(() =>
      deps.platform.tellPrivately(encodeSlackThreadId({ channel, threadTs }), userId, NO_LONGER_ACTIVE),
    );
  });

  // Summon opens no forms: every submission is one it no longer knows (P17).
  app.view(/.*/, async ({ ack, body }) => {
    log.info({ callbackId: body.view.callback_id, user: body.user.id }, 'a form Summon does not know');
    await ack({ response_action: 'update', view: sentenceModal(FORM_NO_LONGER_ACTIVE) });
  });
  app.view({ callback_id: /.*/, type: 'view_closed' }, async ({ ack }) => {
    await ack();
  });

  app.shortcut(/.*/, async ({ ack, respond, body }) => {
    await ack();
    log.info({ callbackId: body.callback_id, user: body.user.id }, 'a shortcut Summon does not know');
    // A message shortcut carries a response_url; a global one has nowhere to answer.
    if ('response_url' in body)
      afterAck(async () => {
        await respond({ response_type: 'ephemeral', text: UNKNOWN_SHORTCUT });
      });
  });

  const known = new RegExp(`^(?:${deps.commands.map(escaped).join('|')})$`);
  app.command(notOneOf(known), async ({ ack, command }) => {
    log.info({ command: command.command, user: command.user_id }, 'a slash command Summon does not know');
    await ack({ response_type: 'ephemeral', text: unknownCommand(command.command) });
  });

  // A select menu's options request from an older card: no options.
  app.options(/.*/, async ({ ack }) => {
    await ack({ options: [] });
  });
}

/** The form, replaced by one that says so (Slack's `update` response to a submission). */
const sentenceModal = (text: string) => ({
  type: 'modal' as const,
  title: { type: 'plain_text' as const, text: 'Summon' },
  close: { type: 'plain_text' as const, text: 'Close' },
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
});
