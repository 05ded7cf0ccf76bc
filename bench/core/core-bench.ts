import { join } from 'node:path';
import { openBaseline } from './baseline';
import { Cleanup } from './cleanup';
import { drive, type RoundTrip } from './drive';
import type { Endpoints } from './endpoints';
import { openEngineSetup, SETUPS } from './engine-setup';
import type { CoreBenchOptions } from './options';
import { type CoreReport, compare, environment, formatTable, type ResultRow, writeReport } from './report';
import type { Measurement } from './stats';

const RESULTS_DIR = join(__dirname, '..', 'results');

/** Warms up, then measures; whatever `open` registered on the cleanup is undone afterwards. */
async function measure(
  options: CoreBenchOptions,
  signal: AbortSignal,
  open: (cleanup: Cleanup) => Promise<{ roundTrip: RoundTrip; verify?: () => void }>,
): Promise<Measurement> {
  const cleanup = new Cleanup();
  let measured: Measurement;
  try {
    const { roundTrip, verify } = await open(cleanup);
    if (options.warmup > 0) await drive(options.warmup, options.concurrency, roundTrip, signal);
    measured = await drive(options.messages, options.concurrency, roundTrip, signal);
    verify?.();
  } catch (error) {
    await cleanup.run().catch((cleanupError: unknown) => console.error(String(cleanupError)));
    throw error;
  }
  await cleanup.run();
  return measured;
}

/** The baseline first, then each set-up on its own fresh database and queue; prints and saves. */
export async function runCoreBench(
  options: CoreBenchOptions,
  endpoints: Endpoints,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<CoreReport> {
  const startedAt = new Date().toISOString();
  const settings = { workerConcurrency: options.workerConcurrency, timeoutMs: options.timeoutMs };

  log('measuring the baseline: bare BullMQ add → worker → completed');
  const baseline = await measure(options, signal, async (cleanup) => ({
    roundTrip: await openBaseline(endpoints.redisUrl, settings, cleanup),
  }));

  const setups: ResultRow[] = [];
  for (const spec of SETUPS) {
    log(`measuring ${spec.label}`);
    const measurement = await measure(options, signal, async (cleanup) => {
      const setup = await openEngineSetup(spec, endpoints, settings, cleanup);
      const expected = options.warmup + options.messages;
      const verify = () => {
        const { problems, counts } = setup.platform;
        if (problems.length > 0) throw new Error(`${spec.label}: bad platform calls: ${problems.join('; ')}`);
        if (counts.replies !== expected) {
          throw new Error(`${spec.label}: ${counts.replies} replies for ${expected} messages`);
        }
      };
      return { roundTrip: setup.roundTrip, verify };
    });
    setups.push(compare(spec.id, spec.label, measurement, baseline));
  }

  const report: CoreReport = {
    benchmark: 'core',
    startedAt,
    finishedAt: new Date().toISOString(),
    options,
    environment: environment(),
    baseline: compare('baseline-bullmq', 'baseline: bare BullMQ round trip', baseline, baseline),
    setups,
  };
  log('');
  log(formatTable(report));
  log(`\nwritten to ${await writeReport(report, RESULTS_DIR)}`);
  return report;
}
