import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../test/support/console-browser';
import { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { MentionSender } from '../realpath/mentions';
import { processCpuMs } from '../realpath/process-stats';
import { type BenchStandIns, openStandIns, PERSON, TEAM } from '../realpath/stand-ins';
import { type RunningSummon, startSummon } from '../realpath/summon-process';
import { until } from '../turns/gated-turns';
import type { ConsoleBenchOptions } from './console-options';
import {
  type ConsolePhase,
  type ConsoleRound,
  type MetricsPhase,
  type Phase,
  ratios,
  rows,
  sum,
  writeResults,
} from './console-report';
import {
  leaveLiveRuns,
  openLiveRuns,
  type PageRecord,
  signInViewer,
  takeDraws,
  watchDraws,
} from './console-viewer';
import { scrapeMetrics } from './metrics-scrape';

const SIGN_IN_APP = { clientId: '1111.2222', clientSecret: 'bench-console-client-secret-0123' };
/** The built-in runner's runaway guard (`DEFAULT_MAX_TOOL_ROUNDS`): a turn ends after 50 tool rounds. */
const MAX_TOOL_ROUNDS = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/**
 * `npm run bench -- console`: the web console's live-runs page (O5) with `turns` running turns,
 * beside the same Summon's `/metrics` scrape at the same rate (the baseline), in one run. The
 * turns are started as people start them: signed Slack `app_mention` events over HTTP into the
 * real `summon serve`; the model stand-in answers each request with a `list_files` tool call
 * after `modelMs`, so every turn keeps running and its status card changes twice a round. Each
 * round measures three phases: no viewer, the viewers on the page, `/metrics` scraped.
 */
export async function runConsoleBench(
  options: ConsoleBenchOptions,
  endpoints: Endpoints,
  log: (line: string) => void,
): Promise<ConsoleRound[]> {
  log(
    `console: ${options.turns} running turns (a tool call every ${options.modelMs} ms each), ${options.viewers} viewer(s) in headless Chromium, ${options.rounds} round(s) of 3 phases of ${options.seconds} s, PostgreSQL + ${options.bullmq ? 'BullMQ' : 'in-process queue'}; load average ${load()}`,
  );
  const rounds = (options.rounds * (options.seconds * 3 + 10) + 20) / (options.modelMs / 1000);
  if (rounds > MAX_TOOL_ROUNDS)
    log(`  warning: up to ${Math.round(rounds)} tool rounds a turn; turns end after ${MAX_TOOL_ROUNDS}`);
  const cleanup = new Cleanup();
  try {
    const standIns = await openStandIns(0, cleanup);
    const started = keepTurnsRunning(standIns, options.modelMs);
    const summon = await startSummon(
      {
        label: 'summon serve',
        database: 'postgres',
        bullmq: options.bullmq,
        env: {
          SLACK_CLIENT_ID: SIGN_IN_APP.clientId,
          SLACK_CLIENT_SECRET: SIGN_IN_APP.clientSecret,
          // T3: every turn active at once (each is in a model call or a tool call, none waits).
          SUMMON_CONCURRENCY: String(options.turns + 16),
        },
      },
      endpoints,
      standIns,
      cleanup,
    );
    const base = `http://127.0.0.1:${summon.port}`;
    standIns.slack.oidc.apps.push({ ...SIGN_IN_APP, redirectUri: `${base}/console/auth/slack/callback` });
    const chromium = await launchChromium();
    cleanup.defer('close Chromium', () => chromium.close());
    const who = { userId: PERSON, teamId: TEAM };
    const pages: Page[] = [];
    for (let v = 0; v < options.viewers; v += 1)
      pages.push(await signInViewer(chromium.browser, base, standIns.slack, who));
    await startTurns(summon, standIns, options, cleanup);
    await until(() => started.size >= options.turns, 120_000, `${options.turns} turns at the model`);
    await sleep(3_000);
    const results: ConsoleRound[] = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      const quiet = await measure(summon, standIns, options.seconds, async () => undefined);
      const watched = await watchConsole(summon, standIns, base, pages, options);
      await sleep(2_000);
      const metrics = await measureMetrics(
        summon,
        standIns,
        base,
        watched.updates / options.seconds,
        options,
      );
      results.push({ quiet, console: watched, metrics });
      log(`round ${round}:`);
      for (const line of rows({ quiet, console: watched, metrics }, options.seconds)) log(line);
    }
    log(`all ${options.rounds} round(s):`);
    const total = sum(results);
    for (const line of rows(total, options.seconds * options.rounds)) log(line);
    for (const line of ratios(total, options)) log(line);
    log(`load average at the end: ${load()}`);
    await writeResults(options, results, log);
    return results;
  } finally {
    await cleanup.run();
  }
}

/** The model stand-in answers every request with a tool call after `modelMs`; the mentions that reached it. */
function keepTurnsRunning(standIns: BenchStandIns, modelMs: number): Set<string> {
  const started = new Set<string>();
  standIns.anthropic.reply = (body) => {
    const marker = [...JSON.stringify(body.messages).matchAll(/mention-(\d+)/g)].at(-1)?.[1];
    if (marker !== undefined) started.add(marker);
    return {
      kind: 'stream',
      blocks: [{ type: 'tool_use', name: 'list_files', input: { path: '.' } }],
      after: sleep(modelMs),
    };
  };
  return started;
}

/** `turns` mentions, each its own thread, at `rate` a second (open loop), each acknowledged. */
async function startTurns(
  summon: RunningSummon,
  standIns: BenchStandIns,
  options: ConsoleBenchOptions,
  cleanup: Cleanup,
): Promise<void> {
  const sender = new MentionSender(summon.eventsUrl, standIns);
  cleanup.defer('close the sender', async () => sender.close());
  const start = Date.now();
  const acks: Promise<string>[] = [];
  for (let i = 0; i < options.turns; i += 1) {
    const wait = start + (i * 1000) / options.rate - Date.now();
    if (wait > 0) await sleep(wait);
    acks.push(sender.deliver());
  }
  await Promise.all(acks);
}

/** Summon's CPU (`/proc/<pid>/stat`) and the model requests over `seconds`, while `during` runs. */
async function measure(
  summon: RunningSummon,
  standIns: BenchStandIns,
  seconds: number,
  during: () => Promise<void>,
): Promise<Phase> {
  standIns.takeModelRequests();
  const before = processCpuMs(summon.pid);
  await Promise.all([sleep(seconds * 1000), during()]);
  return { cpuMs: processCpuMs(summon.pid) - before, modelRequests: standIns.takeModelRequests() };
}

/** The viewers open the page (not measured), then their draws are recorded over the phase, and they leave. */
async function watchConsole(
  summon: RunningSummon,
  standIns: BenchStandIns,
  base: string,
  pages: readonly Page[],
  options: ConsoleBenchOptions,
): Promise<ConsolePhase> {
  await Promise.all(pages.map((page) => openLiveRuns(page, base, options.turns)));
  await sleep(2_000);
  await Promise.all(pages.map(watchDraws));
  let records: PageRecord[] = [];
  const phase = await measure(summon, standIns, options.seconds, async () => {
    await sleep(options.seconds * 1000);
    records = await Promise.all(pages.map(takeDraws));
  });
  await Promise.all(pages.map(leaveLiveRuns));
  const drawn = records.flatMap((r) => r.cards);
  const tables = records.reduce((n, r) => n + r.tables, 0);
  return {
    ...phase,
    cards: drawn.length,
    tables,
    updates: drawn.length + tables,
    toDom: drawn.map((card) => card.seen - card.at),
  };
}

/** The baseline: no viewer, `/metrics` scraped at the rate the viewers were sent updates. */
async function measureMetrics(
  summon: RunningSummon,
  standIns: BenchStandIns,
  base: string,
  updatesPerSecond: number,
  options: ConsoleBenchOptions,
): Promise<MetricsPhase> {
  const perSecond = Math.max(1, updatesPerSecond);
  let latencies: number[] = [];
  const phase = await measure(summon, standIns, options.seconds, async () => {
    latencies = await scrapeMetrics(`${base}/metrics`, perSecond, options.seconds);
  });
  return { ...phase, scrapes: latencies.length, perSecond, latencies };
}
