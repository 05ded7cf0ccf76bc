import type { ChatPlatform, ThreadId } from '../../ports/chat-platform';
import type { SignOfLife } from './sign-of-life';
import type { TurnContext } from './turn-context';
import type { TurnDeps } from './turn-deps';
import { recipientOf } from './turn-reply-stream';

/**
 * P15: the platform's own session around one turn (Slack's agent session), where it has one:
 * working from the turn's sign of life (P9, decision: a turn done sooner sets none, and so
 * closes none), waiting while the turn is suspended in a wait (T1: an approval, a question,
 * another agent), working again after it, ended however the turn ends. A turn that starts to
 * wait shows its sign of life at once. `end` never throws: a platform that cannot show the
 * session loses nothing of the turn.
 */
export function openTurnSession(
  deps: Pick<TurnDeps, 'slots' | 'logger'>,
  platform: ChatPlatform,
  thread: ThreadId,
  context: TurnContext,
  sign: SignOfLife,
): { end: () => Promise<void> } {
  const session = platform.turnSession?.(thread, {
    initiatorUserId: recipientOf(context, platform.platform),
    withdrawn: sign.withdrawal ?? undefined,
  });
  let waiting = false;
  sign.whenDue(() => (waiting ? session?.waiting() : session?.working()));
  const unwatch = deps.slots.watchWaits(context.run.id, (now) => {
    waiting = now;
    if (!sign.due) {
      // P9: a turn that waits for someone shows that it works (its card, its session) at once.
      if (now) sign.show();
      return;
    }
    if (now) session?.waiting();
    else session?.working();
  });
  return {
    end: async () => {
      unwatch();
      await session
        ?.end()
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, runId: context.run.id }, 'ending the platform session failed'),
        );
    },
  };
}
