import type { IncomingMessage, ServerResponse } from 'node:http';
import { SlackFrontEnd } from '../bots/slack/slack-front-end';
import { RunActivityBoard } from '../core/agents/run-activity-board';
import type { Platform } from '../core/model/platform';
import type { ChatPlatform } from '../core/ports/chat-platform';
import { type EngineRuntime, startEngine } from './engine-runtime';
import type { Runtime } from './runtime';

export interface ChatFrontEnds {
  /** The platforms that started (an invalid token leaves its platform out, with one log line). */
  platforms: Platform[];
  /** Routes a request of Summon's HTTP server to a front end; false when none takes it. */
  handleHttp(request: IncomingMessage, response: ServerResponse): boolean;
  close(): Promise<void>;
}

/**
 * The chat front ends whose credentials are configured, with the engine's workers behind them.
 * None configured: nothing starts (HTTP only, or the terminal chat).
 */
export async function startChatFrontEnds(
  runtime: Runtime,
  options: { replyPartLimit?: number } = {},
): Promise<ChatFrontEnds | null> {
  const { config, logger } = runtime;
  if (config.slack === undefined) return null;
  // A13: the engine reports run events here; App Home shows presence from it.
  const activity = new RunActivityBoard();
  const slack = await SlackFrontEnd.connect({
    credentials: config.slack,
    store: runtime.store,
    logger,
    activity: (runId) => activity.activityOf(runId),
    ...(options.replyPartLimit === undefined ? {} : { replyPartLimit: options.replyPartLimit }),
  });
  if (slack === null) return null;
  const platforms = new Map<Platform, ChatPlatform>([['slack', slack.platform]]);
  const engine: EngineRuntime = await startEngine(runtime, platforms, { activity });
  let started: boolean;
  try {
    started = await slack.start(engine.engine);
  } catch (error) {
    await engine.close();
    throw error;
  }
  if (!started) {
    await engine.close();
    return null;
  }
  return {
    platforms: [...platforms.keys()],
    handleHttp: (request, response) => slack.handleHttp(request, response),
    close: async () => {
      await slack.close();
      await engine.close();
    },
  };
}
