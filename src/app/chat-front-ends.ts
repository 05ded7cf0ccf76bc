import { DiscordFrontEnd } from '../bots/discord';
import type { Platform } from '../core/model/platform';
import type { ChatPlatform } from '../core/ports/chat-platform';
import type { RunnerResolver } from '../core/ports/runner';
import { startEngine } from './engine-runtime';
import type { Runtime } from './runtime';

export interface ChatFrontEnds {
  /** The platforms that were configured (their connection may still have failed: see the log). */
  platforms: Platform[];
  close(): Promise<void>;
}

/**
 * `summon start` / `summon serve`: the chat front ends whose credentials are set, and the
 * engine's workers that answer them. Discord: `DISCORD_TOKEN` (and `DISCORD_API_URL`).
 */
export async function startChatFrontEnds(
  runtime: Runtime,
  options: { runners?: RunnerResolver } = {},
): Promise<ChatFrontEnds> {
  const { config, logger } = runtime;
  const token = config.discord.token;
  if (token === undefined) return { platforms: [], close: async () => {} };
  const discord = new DiscordFrontEnd({ store: runtime.store, logger, apiUrl: config.discord.apiUrl });
  const platforms = new Map<Platform, ChatPlatform>([['discord', discord.platform]]);
  const engine = await startEngine(runtime, platforms, options.runners ? { runners: options.runners } : {});
  // An invalid token is logged once and this connection stops; the service keeps running.
  await discord.start(engine.engine, token);
  return {
    platforms: [...platforms.keys()],
    close: async () => {
      await discord.close();
      await engine.close();
    },
  };
}
