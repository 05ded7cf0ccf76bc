/**
 * A worker process for `test/integration/engine/worker-crash.test.ts`, run with tsx: a turn
 * engine on PostgreSQL + BullMQ, one turn at a time, whose runner never finishes a turn. The
 * test kills it mid-run.
 *
 * It speaks to the test over stdio, one line each:
 * - out `WORKER_READY` once it consumes the queue; `RUN_STARTED <runId> <agent>` when a runner
 *   is entered;
 * - out `PLATFORM <json>`, in `<json>`: its chat platform relays every post and edit to the
 *   test's platform and waits for the answer, as two processes share one Slack.
 * - in `{"receive": <InboundMessage>}`: a person's message this process routes itself (as a
 *   process of role `all` does: with its slot free, the turn starts here, T3); out
 *   `RECEIVED <outcome as JSON>` once routed.
 *
 * Settings (all required): WORKER_DATABASE_URL, WORKER_REDIS_URL, WORKER_QUEUE, WORKER_PREFIX,
 * WORKER_DATA_DIR, WORKER_HEARTBEAT_MS, WORKER_DEAD_AFTER_MS. Optional: WORKER_CONCURRENCY (turns
 * at a time; 1 when absent).
 *
 * T2 (`durable-turns.test.ts`): with WORKER_ANTHROPIC_URL, WORKER_ANTHROPIC_KEY and
 * WORKER_COUNT_FILE the turns run on the built-in Anthropic runner against the test's stand-in,
 * with `checkpointTools` (it prints `TOOL_RUNNING <tool>` when one runs). A15
 * (`compaction-after-kill.test.ts`) runs the same way, with a small `contextSize` on the agent.
 */
import { createInterface } from 'node:readline';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { AnthropicRunner } from '../../src/adapters/runners/anthropic-runner';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { DEFAULT_TIMINGS } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { createToolKit } from '../../src/core/engine/tool-kit/turn-tool-kit';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import type {
  ChatPlatform,
  InboundMessage,
  OutboundMessage,
  ThreadId,
} from '../../src/core/ports/chat-platform';
import type { Logger } from '../../src/core/ports/logger';
import type { Runner } from '../../src/core/ports/runner';
import { RoutineScheduler } from '../../src/core/routines/routine-scheduler';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { openDatabase } from '../../src/storage/database';
import { checkpointTools } from './checkpoint-tools';

/** A platform call, as relayed to the test; the answer carries the same id. */
export type RelayedCall =
  | { id: number; op: 'post'; thread: ThreadId; message: OutboundMessage }
  | { id: number; op: 'update'; thread: ThreadId; ref: string; message: OutboundMessage }
  | { id: number; op: 'tellPrivately'; thread: ThreadId; user: string; text: string }
  | { id: number; op: 'startThread'; channel: string; message: OutboundMessage };
export type RelayedAnswer = { id: number; ok: true; ref?: string } | { id: number; ok: false; error: string };

const say = (line: string) => process.stdout.write(`${line}\n`);

function setting(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

/** The terminal platform of the test, reached over stdio. */
class RelayedPlatform implements ChatPlatform {
  readonly platform = 'terminal' as const;
  private last = 0;
  private readonly waiting = new Map<number, (answer: RelayedAnswer) => void>();
  /** Where a `receive` line goes (the engine, once it is made). */
  onReceive: (message: InboundMessage) => void = () => {};

  constructor() {
    createInterface({ input: process.stdin, terminal: false }).on('line', (line) => {
      const parsed = JSON.parse(line) as RelayedAnswer | { receive: InboundMessage };
      if ('receive' in parsed) {
        this.onReceive({ ...parsed.receive, receivedAt: new Date(parsed.receive.receivedAt) });
        return;
      }
      const answer = parsed;
      this.waiting.get(answer.id)?.(answer);
      this.waiting.delete(answer.id);
    });
  }

  async post(thread: ThreadId, message: OutboundMessage): Promise<string> {
    return (await this.call({ op: 'post', thread, message })) ?? '';
  }

  async update(thread: ThreadId, ref: string, message: OutboundMessage): Promise<void> {
    await this.call({ op: 'update', thread, ref, message });
  }

  async tellPrivately(thread: ThreadId, user: string, text: string): Promise<void> {
    await this.call({ op: 'tellPrivately', thread, user, text });
  }

  /** The answer's ref carries the new thread and the first message's ref, as JSON. */
  async startThread(
    channel: string,
    message: OutboundMessage,
  ): Promise<{ thread: ThreadId; messageRef: string }> {
    return JSON.parse((await this.call({ op: 'startThread', channel, message })) ?? '{}');
  }

  private call(request: DistributiveOmit<RelayedCall, 'id'>): Promise<string | undefined> {
    this.last += 1;
    const id = this.last;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (answer) => (answer.ok ? resolve(answer.ref) : reject(new Error(answer.error))));
      say(`PLATFORM ${JSON.stringify({ id, ...request })}`);
    });
  }
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** Every turn starts and then never ends, whatever its signal says: only SIGKILL stops it. */
const neverFinishes: Runner = {
  async *run(request) {
    say(`RUN_STARTED ${request.runId} ${request.agent.name}`);
    yield { type: 'thinking' };
    await new Promise<never>(() => undefined);
  },
};

/** Warnings and errors on stderr, which the test shows when something goes wrong. */
function stderrLogger(bindings: Record<string, unknown> = {}): Logger {
  const write = (level: string) => (fields: object, message: string) => {
    const shown = Object.entries({ ...bindings, ...fields }).map(([k, v]) => `${k}=${String(v)}`);
    process.stderr.write(`${level} ${message} ${shown.join(' ')}\n`);
  };
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: write('warn'),
    error: write('error'),
    child: (more) => stderrLogger({ ...bindings, ...more }),
  };
}

async function main(): Promise<void> {
  const logger = stderrLogger({ process: 'worker' });
  const database = await openDatabase({ databaseUrl: setting('WORKER_DATABASE_URL'), dbDir: '' });
  const modelUrl = process.env.WORKER_ANTHROPIC_URL;
  const builtIn =
    modelUrl === undefined
      ? undefined
      : {
          runner: new AnthropicRunner({
            apiKey: setting('WORKER_ANTHROPIC_KEY'),
            baseUrl: modelUrl,
            defaultModel: 'claude-sonnet-4-6',
            maxRetries: 0,
          }),
          tools: createToolKit(
            checkpointTools(setting('WORKER_COUNT_FILE'), (tool) => say(`TOOL_RUNNING ${tool}`)),
          ),
        };
  const platform = new RelayedPlatform();
  const engine = new TurnEngine({
    store: database.store,
    platforms: new Map([['terminal', platform]]),
    queue: createJobQueue<RunJob>({
      name: setting('WORKER_QUEUE'),
      redisUrl: setting('WORKER_REDIS_URL'),
      prefix: setting('WORKER_PREFIX'),
      logger,
    }),
    runners: () => builtIn?.runner ?? neverFinishes,
    ...(builtIn === undefined ? {} : { tools: builtIn.tools }),
    rateLimiter: new InMemoryPairRateLimiter(),
    directory: new FileWorkspaceDirectory(setting('WORKER_DATA_DIR')),
    clock: { now: () => new Date() },
    logger,
    relayName: null,
    timings: {
      ...DEFAULT_TIMINGS,
      statusEditIntervalMs: 20,
      heartbeatMs: Number(setting('WORKER_HEARTBEAT_MS')),
      deadAfterMs: Number(setting('WORKER_DEAD_AFTER_MS')),
    },
  });
  // One turn at a time unless told: what else is accepted waits in Redis while this worker is busy.
  await engine.start({ concurrency: Number(process.env.WORKER_CONCURRENCY ?? '1') });
  // W2: with WORKER_ROUTINES=1 this worker also fires routines, as `startEngine` wires it.
  if (process.env.WORKER_ROUTINES === '1')
    new RoutineScheduler({
      store: database.store,
      platforms: new Map([['terminal', platform]]),
      clock: { now: () => new Date() },
      logger,
      wake: (job) => engine.wake(job),
      sweepMs: 100,
    }).start();
  platform.onReceive = (message) => {
    engine.receive(message).then(
      (outcome) => say(`RECEIVED ${JSON.stringify(outcome)}`),
      (error: unknown) => say(`RECEIVED failed ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  say('WORKER_READY');
}

main().catch((error: unknown) => {
  process.stderr.write(`worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
