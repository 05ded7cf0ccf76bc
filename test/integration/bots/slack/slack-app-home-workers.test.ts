import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { createJobQueue } from '../../../../src/adapters/queue/create-job-queue';
import { createRedisClient } from '../../../../src/adapters/redis/redis-connection-options';
import { AnthropicRunner } from '../../../../src/adapters/runners/anthropic-runner';
import { FileWorkspaceDirectory } from '../../../../src/adapters/workspace-directory/file-workspace-directory';
import { RunActivityBoard } from '../../../../src/core/agents/run-activity-board';
import { DEFAULT_TIMINGS } from '../../../../src/core/engine/engine-timings';
import type { RunJob } from '../../../../src/core/engine/run-job';
import { createToolKit } from '../../../../src/core/engine/tool-kit/turn-tool-kit';
import { TurnEngine } from '../../../../src/core/engine/turn-engine';
import { silentLogger } from '../../../../src/core/ports/logger';
import { InMemoryPairRateLimiter } from '../../../../src/core/wake/in-memory-pair-rate-limiter';
import { checkpointTools } from '../../../support/checkpoint-tools';
import { waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom, fixture } from '../../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../../support/slack-harness';
import { AnthropicStandIn } from '../../../support/stand-ins/anthropic-stand-in';
import { makeTempDir } from '../../../support/temp-dir';
import { deleteKeysUnder, TEST_REDIS_URL } from '../../queue/redis-test-prefix';

const API_KEY = 'sk-ant-app-home-workers';

/**
 * A13, T5: App Home is drawn by the process that receives `app_home_opened` (here a `web` one,
 * which runs no turn); the turns run on another worker sharing PostgreSQL and Redis. Presence
 * comes from the store, not from the drawing process's memory.
 */
describe('A13: App Home shows the presence of runs another worker executes (PostgreSQL + BullMQ)', () => {
  let h: SlackHarness | undefined;
  let worker: TurnEngine | undefined;
  let model: AnthropicStandIn | undefined;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
  let redis: Redis;
  let prefix: string;

  beforeAll(() => {
    redis = createRedisClient(TEST_REDIS_URL);
  });
  beforeEach(() => {
    prefix = `summon-test-home-${randomUUID().slice(0, 8)}`;
  });
  afterEach(async () => {
    await worker?.close();
    await h?.close();
    await model?.close();
    await dataDir?.remove();
    await deleteKeysUnder(redis, prefix);
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('T5, A13: a tool call in flight on worker B shows as running, a model call as thinking, in the App Home process A draws', async () => {
    // engineer's turn calls `hang` (in flight until the test ends); qa's model call is held open.
    model = await AnthropicStandIn.start({
      apiKey: API_KEY,
      reply: (body) =>
        JSON.stringify(body.messages).includes('build it')
          ? {
              kind: 'stream',
              blocks: [{ type: 'tool_use', name: 'hang', input: {} }],
              stopReason: 'tool_use',
            }
          : { kind: 'stream', blocks: [{ type: 'text', chunks: ['testing'] }], hold: true },
    });
    // Process A: the Slack front end with a `web` engine (it routes the inbox, runs no turn).
    h = await openSlackHarness({
      runner: new ScriptedRunner({}),
      queue: { redisUrl: TEST_REDIS_URL, prefix },
      runTurns: false,
    });
    const harness = h;
    dataDir = await makeTempDir();
    const started: string[] = [];
    // Worker B: its own engine, queue consumer and activity board; it posts through the same Slack.
    worker = new TurnEngine({
      store: harness.store,
      platforms: new Map([['slack', harness.front.platform]]),
      queue: createJobQueue<RunJob>({ name: harness.queueName, redisUrl: TEST_REDIS_URL, prefix }),
      runners: () =>
        new AnthropicRunner({
          apiKey: API_KEY,
          baseUrl: model?.url ?? '',
          defaultModel: 'claude-sonnet-4-6',
          maxRetries: 0,
        }),
      tools: createToolKit(
        checkpointTools(path.join(dataDir.path, 'runs.txt'), (tool) => started.push(tool)),
      ),
      rateLimiter: new InMemoryPairRateLimiter(),
      directory: new FileWorkspaceDirectory(dataDir.path),
      activity: new RunActivityBoard(),
      clock: { now: () => new Date() },
      logger: silentLogger,
      relayName: null,
      timings: { ...DEFAULT_TIMINGS, statusEditIntervalMs: 20 },
    });
    await worker.start({ concurrency: 4, routeInbox: false });

    const say = async (text: string) => {
      const ts = harness.standIn.addPersonMessage(CHANNEL, null);
      await harness.deliver(eventFrom('message-channel', { ts, text }));
    };
    await say('@engineer build it');
    await say('@qa run the tests');
    await waitFor(async () => started.includes('hang'));
    await waitFor(async () => (model?.requests.length ?? 0) >= 2);
    const runs = await harness.runs();
    expect(runs.map((r) => r.status)).toEqual(['running', 'running']);

    const opened = fixture('app-home-opened');
    expect((await harness.deliver({ ...opened, event_id: 'Ev0WORKERHOME1' })).status).toBe(200);
    await waitFor(async () => harness.standIn.views.length > 0);
    const view = harness.standIn.views.at(-1)?.view as {
      blocks: { type: string; text?: { text: string } }[];
    };
    const lines: Record<string, string> = {};
    for (const block of view.blocks) {
      const match = /^\*([a-z]+)\* \(/.exec(block.text?.text ?? '');
      if (block.type === 'section' && match?.[1] !== undefined) lines[match[1]] = block.text?.text ?? '';
    }
    expect(lines.engineer).toMatch(/: running · :gear: running/);
    expect(lines.qa).toMatch(/: running · :thought_balloon: thinking/);
    expect(lines.architect).toMatch(/: neverRun/);
  });
});
