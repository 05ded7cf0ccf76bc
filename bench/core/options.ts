import { parseArgs } from 'node:util';

export interface CoreBenchOptions {
  /** Measured messages (or baseline jobs) per set-up. */
  messages: number;
  /** Round trips in flight at once, each from its own thread. */
  concurrency: number;
  /** The worker's concurrency: the engine's `start({ concurrency })` and the baseline worker's. */
  workerConcurrency: number;
  /** Unmeasured round trips before each measurement. */
  warmup: number;
  /** A round trip that takes longer fails the benchmark. */
  timeoutMs: number;
}

export const USAGE = `usage: npm run bench -- [core] [--messages N] [--concurrency N] [--worker-concurrency N]
                          [--warmup N] [--timeout-ms N]

  --messages            measured messages per set-up (default 300)
  --concurrency         messages in flight at once, each in its own thread (default 20)
  --worker-concurrency  jobs a worker runs at once, engine and baseline alike (default: --concurrency)
  --warmup              unmeasured messages before each measurement (default 20)
  --timeout-ms          longest wait for one reply before the run fails (default 60000)

  PostgreSQL: SUMMON_BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres)
  Redis:      SUMMON_BENCH_REDIS_URL (default redis://127.0.0.1:6379); loopback only`;

function positiveInteger(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < min) {
    throw new Error(`--${name} must be an integer >= ${min}, got "${value}".`);
  }
  return parsed;
}

/** The options, or 'help' when usage was asked for. Throws with a sentence on a bad flag. */
export function parseCoreOptions(argv: readonly string[]): CoreBenchOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      messages: { type: 'string' },
      concurrency: { type: 'string' },
      'worker-concurrency': { type: 'string' },
      warmup: { type: 'string' },
      'timeout-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) return 'help';
  const unknown = positionals.filter((suite) => suite !== 'core');
  if (unknown.length > 0) throw new Error(`Unknown benchmark "${unknown.join(' ')}"; there is only "core".`);
  const concurrency = positiveInteger('concurrency', values.concurrency, 20);
  return {
    messages: positiveInteger('messages', values.messages, 300),
    concurrency,
    workerConcurrency: positiveInteger('worker-concurrency', values['worker-concurrency'], concurrency),
    warmup: positiveInteger('warmup', values.warmup, 20, 0),
    timeoutMs: positiveInteger('timeout-ms', values['timeout-ms'], 60_000),
  };
}
