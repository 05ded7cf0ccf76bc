import { Cleanup } from '../core/cleanup';
import { drive } from '../core/drive';
import type { Endpoints } from '../core/endpoints';
import { openEngineSetup, SETUPS } from '../core/engine-setup';
import { type Measurement, nsToMs, summarize } from '../core/stats';
import { GatedRunner, gatedTools, SlowRunner, until } from './gated-turns';

const TIMEOUT_MS = 120_000;
const COMMITS_ASK = { scopeKind: 'workspace', scopeId: null, action: 'commit', decision: 'ask' } as const;
const YOU = { platform: 'terminal' as const, workspace: { slug: 'default' }, senderId: 'you' };

export interface TurnsBenchOptions {
  /** Approvals left pending in the second measurement. */
  pending: number;
  /** Measured mentions per measurement. */
  messages: number;
  /** Active turn slots (`start({ concurrency })`); small, to show waits hold none. */
  slots: number;
  /** The slow-model load: model time, mentions, spread over this long. */
  modelMs: number;
  burst: number;
  spreadMs: number;
}

const SELECTED = SETUPS.filter((s) => s.id !== 'postgres-in-process');
const row = (m: Measurement) => `p50 ${m.p50Ms.toFixed(1)} ms, p99 ${m.p99Ms.toFixed(1)} ms`;

/**
 * T1: a new mention's reply latency with `pending` approvals waiting vs with none, on the
 * same engine in the same run (4 slots). T3: a slow model, a burst of mentions in their own
 * threads: reply p99 vs a bare bot that just calls the model for each.
 */
export async function runTurnsBench(
  options: TurnsBenchOptions,
  endpoints: Endpoints,
  log: (line: string) => void,
): Promise<void> {
  const signal = new AbortController().signal;
  log('DIAGNOSTIC (--in-process: engine.receive, in-process runners and platform; no Bolt, no HTTP):');
  for (const spec of SELECTED) {
    const cleanup = new Cleanup();
    try {
      const setup = await openEngineSetup(
        spec,
        endpoints,
        { workerConcurrency: options.slots, timeoutMs: TIMEOUT_MS },
        cleanup,
        { runner: new GatedRunner(), tools: gatedTools() },
      );
      await setup.store.transaction((tx) => tx.guardrails.upsert(setup.workspaceId, COMMITS_ASK));
      await drive(20, options.slots, setup.roundTrip, signal); // warm-up
      const none = await drive(options.messages, options.slots, setup.roundTrip, signal);
      for (let i = 0; i < options.pending; i++) await setup.send(`release ${i}`);
      await until(
        () => setup.engine.slotStats().suspended === options.pending,
        TIMEOUT_MS,
        `${options.pending} suspended turns`,
      );
      const pending = await drive(options.messages, options.slots, setup.roundTrip, signal);
      for (const id of setup.platform.approvalIds)
        await setup.engine.act({ kind: 'approval', approvalId: id, verdict: 'deny' }, YOU);
      await until(() => setup.engine.slotStats().suspended === 0, TIMEOUT_MS, 'the denied turns to end');
      // Measured again once nothing is pending: the machine's drift during the run shows here.
      const after = await drive(options.messages, options.slots, setup.roundTrip, signal);
      const p50 = (none.p50Ms + after.p50Ms) / 2;
      const p99 = (none.p99Ms + after.p99Ms) / 2;
      log(`${spec.label}, ${options.slots} slots, ${options.messages} mentions each:`);
      log(`  none pending (before):  ${row(none)}`);
      log(`  ${options.pending} approvals pending: ${row(pending)}`);
      log(`  none pending (after):   ${row(after)}`);
      log(
        `  ratio pending / none (mean of before and after): p50 ${(pending.p50Ms / p50).toFixed(2)}×, p99 ${(pending.p99Ms / p99).toFixed(2)}× (diagnostic; T1 asks ≤ 1.1×)`,
      );
    } finally {
      await cleanup.run();
    }
  }

  log('');
  const bare = await bareBot(options);
  log(
    `bare bot, ${options.modelMs} ms model, ${options.burst} mentions over ${options.spreadMs} ms: ${row(bare)}`,
  );
  for (const spec of SELECTED) {
    const cleanup = new Cleanup();
    try {
      const setup = await openEngineSetup(
        spec,
        endpoints,
        { workerConcurrency: 64, timeoutMs: TIMEOUT_MS },
        cleanup,
        { runner: new SlowRunner(options.modelMs) },
      );
      const measured = await burst(options, () => setup.roundTrip());
      log(
        `${spec.label}, 64 slots: ${row(measured)}; p99 ratio to the bare bot ${(measured.p99Ms / bare.p99Ms).toFixed(2)}× (diagnostic)`,
      );
    } finally {
      await cleanup.run();
    }
  }
}

/** `burst` round trips started evenly over `spreadMs` (open loop), each measured to its end. */
async function burst(options: TurnsBenchOptions, roundTrip: () => Promise<bigint>): Promise<Measurement> {
  const first = process.hrtime.bigint();
  const gap = options.spreadMs / Math.max(1, options.burst - 1);
  const trips = Array.from({ length: options.burst }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, i * gap));
    const start = process.hrtime.bigint();
    const end = await roundTrip();
    return { ms: nsToMs(end - start), end };
  });
  const done = await Promise.all(trips);
  let last = first;
  for (const d of done) if (d.end > last) last = d.end;
  return summarize(
    done.map((d) => d.ms),
    nsToMs(last - first),
  );
}

/** A bot with no engine: each mention waits for the model (`modelMs`) and answers. */
function bareBot(options: TurnsBenchOptions): Promise<Measurement> {
  return burst(options, async () => {
    await new Promise((resolve) => setTimeout(resolve, options.modelMs));
    return process.hrtime.bigint();
  });
}
