import { parseArgs } from 'node:util';
import type { SummonSetup } from './summon-process';

/** What `instant` and `turns` measure on the real path; they differ only in their defaults. */
export interface RealPathOptions {
  kind: 'instant' | 'turns';
  rate: number;
  seconds: number;
  /** How long the model stand-in takes to answer (0: at once). */
  modelMs: number;
  /**
   * Unmeasured mentions first, on each bot, at up to 100/s: enough for V8 to have compiled the
   * hot paths of a running server, which a short warm-up leaves compiling on its own threads
   * in the measured stretch (a quarter of Summon's CPU there after 50).
   */
  warmup: number;
  /** The durable floor bot (`durable-bot.ts`) measured between the bare bot and Summon's set-ups. */
  floor: boolean;
  setups: SummonSetup[];
  /**
   * Rounds of every bot, one after another (bare, floor, Summon's set-ups, then again): a
   * set-up's figures are read against the bare bot of their own round, and the medians over
   * the rounds are printed after them (`rounds-summary.ts`). This machine's speed drifts within
   * minutes; one round can land in a slow or a fast stretch.
   */
  rounds: number;
}

const DEFAULTS = {
  instant: { rate: 200, seconds: 10, modelMs: 0, warmup: 2000 },
  turns: { rate: 5, seconds: 8, modelMs: 5000, warmup: 5 },
} as const;

export const REAL_PATH_USAGE = `npm run bench -- instant|turns [--rate N] [--seconds N] [--model-ms N] [--warmup N]
    [--database postgres,pglite] [--queue in-process,bullmq] [--no-floor] [--rounds N]
  instant: 200 mentions/s for 10 s, the model answers at once (defaults)
  turns:   5 mentions/s for 8 s (40), the model answers after 5000 ms (defaults)
  --database, --queue: comma-separated; every pair is a set-up (default postgres,pglite × in-process)
  --no-floor: leave out the durable floor bot (the bare bot plus T4's inbox and P7's outbox writes)
  --rounds N: every bot N times, one round after another; then each set-up's medians over the rounds (default 1)
  --in-process: the diagnostic variant (engine.receive, in-process runner and platform)`;

const positive = (name: string, value: string | undefined, fallback: number, zero = false): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (!zero && n === 0))
    throw new Error(`--${name} must be a ${zero ? 'non-negative' : 'positive'} number, got "${value}".`);
  return n;
};

const list = <T extends string>(name: string, value: string, allowed: readonly T[]): T[] => {
  const items = value.split(',').map((s) => s.trim());
  for (const item of items)
    if (!(allowed as readonly string[]).includes(item))
      throw new Error(`--${name}: "${item}" is not one of ${allowed.join(', ')}.`);
  return items as T[];
};

const wholeRounds = (value: string | undefined): number => {
  const n = positive('rounds', value, 1);
  if (!Number.isInteger(n)) throw new Error(`--rounds must be a whole number, got "${value}".`);
  return n;
};

export function parseRealPathOptions(kind: 'instant' | 'turns', argv: readonly string[]): RealPathOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      rate: { type: 'string' },
      seconds: { type: 'string' },
      'model-ms': { type: 'string' },
      warmup: { type: 'string' },
      database: { type: 'string', default: 'postgres,pglite' },
      queue: { type: 'string', default: 'in-process' },
      'no-floor': { type: 'boolean', default: false },
      rounds: { type: 'string' },
    },
  });
  const defaults = DEFAULTS[kind];
  const setups: SummonSetup[] = [];
  for (const database of list('database', values.database, ['postgres', 'pglite'] as const))
    for (const queue of list('queue', values.queue, ['in-process', 'bullmq'] as const))
      setups.push({
        label: `Summon, ${database === 'postgres' ? 'PostgreSQL' : 'PGlite'} + ${queue === 'bullmq' ? 'BullMQ' : 'in-process queue'}`,
        database,
        bullmq: queue === 'bullmq',
      });
  return {
    kind,
    rate: positive('rate', values.rate, defaults.rate),
    seconds: positive('seconds', values.seconds, defaults.seconds),
    modelMs: positive('model-ms', values['model-ms'], defaults.modelMs, true),
    warmup: positive('warmup', values.warmup, defaults.warmup, true),
    floor: !values['no-floor'],
    setups,
    rounds: wholeRounds(values.rounds),
  };
}
