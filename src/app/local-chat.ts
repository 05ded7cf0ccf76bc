import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { describeDiscovery } from '../adapters/runners/model-discovery';
import { TerminalChat, TerminalPlatform } from '../bots/terminal';
import type { EngineTimings } from '../core/engine/engine-timings';
import type { RunWorkspace } from '../core/ports/run-workspace';
import type { RunnerResolver } from '../core/ports/runner';
import { ensureLocalChat } from '../core/workspace/local-chat';
import { startEngine } from './engine-runtime';
import type { McpChatSlot } from './mcp-runtime';
import type { Runtime } from './runtime';

/**
 * `summon chat`: the embedded default's front end. Member `you` in workspace `default`,
 * space `general` with the seeded agents; turns run on this process's engine.
 */
export async function runLocalChat(
  runtime: Runtime,
  io: { input: Readable; output: Writable },
  options: {
    runners?: RunnerResolver;
    timings?: Partial<EngineTimings>;
    workspaces?: RunWorkspace | null;
    /** E6: `/mcp` asks in this chat's channel while it is open. */
    mcpChat?: McpChatSlot | null | undefined;
  } = {},
): Promise<void> {
  await runtime.store.transaction((tx) => ensureLocalChat(tx));
  const now = () => new Date();
  // A session id per chat: thread numbers restart at 1, the conversations of earlier chats stay.
  const session = randomBytes(4).toString('hex');
  const platform = new TerminalPlatform({ output: io.output, now, session });
  const engine = await startEngine(runtime, new Map([['terminal', platform]]), options);
  // E6: an ask from `/mcp` opens a thread on this screen and is answered by this engine.
  const detachMcp = options.mcpChat?.attach({
    engine: engine.engine,
    platforms: new Map([['terminal', platform]]),
    signals: engine.signals,
  });
  // SIGTERM / SIGINT end the chat like `/quit`: the engine then closes gracefully (turns in
  // progress finish or go back to the queue) instead of the process dying mid-turn.
  const stop = () => io.input.destroy();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await new TerminalChat({
      input: io.input,
      platform,
      engine: engine.engine,
      now,
      newId: randomUUID,
      // A10: the first line says which model agents without an adapter use, or how to get one.
      ...(engine.model === undefined
        ? {}
        : { modelLine: { text: describeDiscovery(engine.model), found: engine.model.kind !== 'none' } }),
    }).run();
  } finally {
    detachMcp?.();
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await engine.close();
  }
}
