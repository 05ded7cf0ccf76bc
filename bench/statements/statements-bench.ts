/**
 * `npm run bench -- statements [--turns N]`: what one turn costs the database (issue 12 item 5).
 * Instant-model turns, one at a time, on PostgreSQL + BullMQ and PGlite + in-process: the
 * statements and transactions the store sent per turn, by kind and table. The engine's own
 * background (inbox polling, recovery) is measured first over an idle stretch and taken off.
 */
import { Cleanup } from '../core/cleanup';
import { drive } from '../core/drive';
import type { Endpoints } from '../core/endpoints';
import { openEngineSetup, SETUPS } from '../core/engine-setup';
import { StatementCounter } from '../core/statement-counter';

const SETTLE_MS = 1500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runStatementsBench(
  turns: number,
  endpoints: Endpoints,
  log: (line: string) => void,
): Promise<void> {
  const signal = new AbortController().signal;
  for (const spec of SETUPS.filter(
    (s) => s.id === (process.env.ONLY ?? s.id) && s.id !== 'postgres-in-process',
  )) {
    const cleanup = new Cleanup();
    try {
      const setup = await openEngineSetup(
        spec,
        endpoints,
        { workerConcurrency: 4, timeoutMs: 60_000 },
        cleanup,
      );
      const counter = new StatementCounter(setup.database);
      await drive(10, 1, setup.roundTrip, signal); // warm-up
      await sleep(SETTLE_MS);
      counter.reset();
      let started = performance.now();
      await sleep(SETTLE_MS * 2);
      const idle = counter.snapshot();
      const idlePerMs = {
        statements: idle.statements / (performance.now() - started),
        roundTrips: idle.roundTrips / (performance.now() - started),
        transactions: idle.transactions / (performance.now() - started),
      };
      counter.reset();
      started = performance.now();
      const cpuBefore = process.cpuUsage();
      await drive(turns, 1, setup.roundTrip, signal);
      const cpu = process.cpuUsage(cpuBefore);
      await sleep(SETTLE_MS);
      const elapsed = performance.now() - started;
      const busy = counter.snapshot();
      const per = (n: number, idleRate: number) => ((n - idleRate * elapsed) / turns).toFixed(1);
      log(
        `${spec.label}: per turn ${per(busy.transactions, idlePerMs.transactions)} transactions, ` +
          `${per(busy.statements, idlePerMs.statements)} statements in ` +
          `${per(busy.roundTrips, idlePerMs.roundTrips)} round trips ` +
          `(idle background: ${(idlePerMs.transactions * 1000).toFixed(1)} transactions/s, taken off); ` +
          `this process's CPU ${((cpu.user + cpu.system) / 1000 / turns).toFixed(2)} ms per turn`,
      );
      const shapes = [...busy.byShape].sort((a, b) => b[1] - a[1]);
      for (const [shape, n] of shapes) log(`  ${(n / turns).toFixed(2).padStart(6)}  ${shape}`);
      if (process.env.SUMMON_BENCH_TRACE === '1') {
        counter.reset();
        await drive(1, 1, setup.roundTrip, signal);
        await sleep(SETTLE_MS);
        log('  one turn, in order:');
        for (const shape of counter.snapshot().sequence) log(`    ${shape}`);
      }
    } finally {
      await cleanup.run();
    }
  }
}
