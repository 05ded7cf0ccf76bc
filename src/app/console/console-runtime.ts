import { randomBytes, randomUUID } from 'node:crypto';
import { DiscordSignIn } from '../../adapters/console-auth/discord-sign-in';
import type { PlatformSignIn } from '../../adapters/console-auth/platform-sign-in';
import { SlackSignIn } from '../../adapters/console-auth/slack-sign-in';
import type { ConsoleConfig } from '../../config/console-config';
import { MemberToolsService } from '../../core/mcp-service/member-tools-service';
import { systemClock } from '../../core/ports/clock';
import type { McpChatSlot } from '../mcp-runtime';
import type { Runtime } from '../runtime';
import { CookieSigner } from './console-cookies';
import type { ConsoleDeps } from './console-deps';
import { ConsoleSessions } from './console-sessions';

/** How often a live page looks for changes. */
const LIVE_POLL_MS = 1000;

/**
 * O5: the web console over the runtime, on the web role. Its Stop and decisions go through the
 * chat the slot holds (the same `act` as a card's click); its cookies are signed with
 * `SUMMON_SECRET_KEY` (without one, a key made now: sessions end with the process).
 */
export function createConsole(
  runtime: Runtime,
  slot: McpChatSlot,
  config: ConsoleConfig,
  options: { livePollMs?: number } = {},
): ConsoleDeps {
  const logger = runtime.logger.child({ component: 'console' });
  const signIns = new Map<'slack' | 'discord', PlatformSignIn>();
  if (config.slack !== undefined) signIns.set('slack', new SlackSignIn(config.slack));
  if (config.discord !== undefined) signIns.set('discord', new DiscordSignIn(config.discord));
  const key = runtime.config.secretKey ?? randomBytes(32);
  if (runtime.config.secretKey === undefined && signIns.size > 0)
    logger.warn({}, 'O5: SUMMON_SECRET_KEY is not set: console sessions end when this process does');
  return {
    store: runtime.store,
    clock: systemClock,
    logger,
    config,
    chat: () => slot.get(),
    members: new MemberToolsService({
      store: runtime.store,
      chat: () => slot.get(),
      clock: systemClock,
      logger,
      newId: randomUUID,
    }),
    sessions: new ConsoleSessions({ store: runtime.store, clock: systemClock, logger }),
    signer: new CookieSigner(key),
    signIns,
    liveCards: runtime.liveCards,
    livePollMs: options.livePollMs ?? LIVE_POLL_MS,
  };
}
