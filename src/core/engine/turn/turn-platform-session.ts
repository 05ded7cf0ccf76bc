import type { ChatPlatform, ThreadId } from '../../ports/chat-platform';
import type { TurnContext } from './turn-context';
import type { TurnDeps } from './turn-deps';
import { recipientOf } from './turn-reply-stream';

/**
 * P15: the platform's own session around one turn (Slack's agent session), where it has one:
 * working from the start, waiting while the turn is suspended in a wait (T1: an approval, a
 * question, another agent), working again after it, ended however the turn ends. `end` never
 * throws: a platform that cannot show the session loses nothing of the turn.
 */
export function openTurnSession(
  deps: Pick<TurnDeps, 'slots' | 'logger'>,
  platform: ChatPlatform,
  thread: ThreadId,
  context: TurnContext,
): { end: () => Promise<void> } {
  const session = platform.turnSession?.(thread, {
    initiatorUserId: recipientOf(context, platform.platform),
  });
  if (session === undefined) return { end: async () => {} };
  session.working();
  const unwatch = deps.slots.watchWaits(context.run.id, (waiting) =>
    waiting ? session.waiting() : session.working(),
  );
  return {
    end: async () => {
      unwatch();
      await session
        .end()
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, runId: context.run.id }, 'ending the platform session failed'),
        );
    },
  };
}
