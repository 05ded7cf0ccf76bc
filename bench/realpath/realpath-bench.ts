import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { databaseUrlFor } from '../../src/storage/server-admin';
import { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { type Measurement, millisText as ms } from '../core/stats';
import { ACK_P99_GOAL_MS } from '../ingest/ingest-report';
import { startBareBot } from './bare-bot-process';
import { startDurableBot } from './durable-bot-process';
import { type MentionLoad, mentionLoad, WARMUP_TIMEOUT_MS } from './mention-load';
import { MentionSender } from './mentions';
import { DatabaseProbe, mainThreadCpuMs, processCpuMs } from './process-stats';
import type { RealPathOptions } from './realpath-options';
import type { ReplyStages, StageTimes } from './reply-stages';
import { type Round, roundsSummary, TARGETS } from './rounds-summary';
import { type BenchStandIns, openStandIns } from './stand-ins';
import { type RunningSummon, startSummon } from './summon-process';

/** The warm-up's rate at most: the count, not the rate, lets V8 compile the hot paths. */
const WARMUP_RATE = 100;

/** One bot's stretch: its load, and the CPU it and its database's backends spent per reply. */
interface BotResult extends MentionLoad {
  label: string;
  cpuMsPerReply: number;
  /** Of `cpuMsPerReply`, the main thread's (the event loop); the rest is V8's helper threads (JIT, GC). */
  mainThreadCpuMsPerReply: number;
  /** Null for a bot with no PostgreSQL database (the bare bot, PGlite); the floor's and Summon's otherwise. */
  postgresCpuMsPerReply: number | null;
  /** This process's: the sender and both stand-ins, the same work for every bot. */
  benchCpuMsPerReply: number;
  /** Slack Web API calls per reply over the stretch, by method (a turn slower than its sign of life shows more). */
  slackCallsPerReply: Record<string, number>;
  /** A diagnostic from a Summon set-up's PostgreSQL rows: where its replies waited; null otherwise. */
  stages: ReplyStages | null;
}

/**
 * `npm run bench -- instant` / `turns`: mentions as Slack delivers them (signed `app_mention`
 * events over HTTP) at a fixed rate into the real `summon serve` (a child process: Bolt's HTTP
 * receiver, the engine, the built-in Anthropic runner over HTTP, the Slack Web API over HTTP
 * with its outbox), and into a bare Bolt bot (one model call and one `chat.postMessage` per
 * mention, its own child process) on the same stand-ins, in the same run; between them, unless
 * `--no-floor`, the durable floor bot (the bare bot plus the writes T4 and P7 demand, its own
 * database): what this machine allows any bot that keeps Summon's durability promises. Reply
 * latency: from when the mention was due to when the Slack stand-in received the write that ends
 * the reply. Goals are ratios to the bare bot of this run, and the absolute targets,
 * printed, not asserted; each set-up's ratios to the floor are printed beside them.
 */
export async function runRealPathBench(
  options: RealPathOptions,
  endpoints: Endpoints,
  log: (line: string) => void,
): Promise<void> {
  const count = Math.round(options.rate * options.seconds);
  log(
    `${options.kind}: ${options.rate} mentions/s for ${options.seconds} s (${count}), model ${options.modelMs} ms, warm-up ${options.warmup}; signed Slack events over HTTP, replies seen at the Slack Web API stand-in`,
  );
  const shared = new Cleanup();
  const rounds: RoundResults[] = [];
  try {
    const standIns = await openStandIns(options.modelMs, shared);
    for (let i = 1; i <= options.rounds; i += 1) {
      if (options.rounds > 1) log(`round ${i} of ${options.rounds}`);
      rounds.push(await runRound(options, standIns, endpoints, log));
    }
  } finally {
    await shared.run();
  }
  for (const line of roundsSummary(options.kind, rounds)) log(line);
  await writeResults(options, rounds, log);
}

/** One round's bots, each beside the bare bot of the same round. */
type RoundResults = Round<BotResult>;

async function runRound(
  options: RealPathOptions,
  standIns: BenchStandIns,
  endpoints: Endpoints,
  log: (line: string) => void,
): Promise<RoundResults> {
  const bare = await measureBot('bare Bolt bot (baseline)', options, standIns, endpoints, (cleanup) =>
    startBareBot(standIns, cleanup),
  );
  log(row(bare));
  let floor: BotResult | null = null;
  if (options.floor) {
    floor = await measureBot('durable floor bot (T4 + P7 writes)', options, standIns, endpoints, (cleanup) =>
      startDurableBot(standIns, endpoints, cleanup),
    );
    log(row(floor));
    log(goals(options, floor, bare, null));
  }
  const setups: BotResult[] = [];
  for (const setup of options.setups) {
    const result = await measureBot(
      setup.label,
      options,
      standIns,
      endpoints,
      (cleanup) => startSummon(setup, endpoints, standIns, cleanup),
      true,
    );
    setups.push(result);
    log(row(result));
    log(goals(options, result, bare, floor));
  }
  return { bare, floor, setups };
}

async function measureBot(
  label: string,
  options: RealPathOptions,
  standIns: BenchStandIns,
  endpoints: Endpoints,
  start: (cleanup: Cleanup) => Promise<RunningSummon>,
  /** Summon's database, whose rows say where its replies waited (`reply-stages.ts`). */
  summonRows = false,
): Promise<BotResult> {
  const cleanup = new Cleanup();
  try {
    const bot = await start(cleanup);
    const sender = new MentionSender(bot.eventsUrl, standIns);
    cleanup.defer('close the sender', async () => sender.close());
    const probe = bot.databaseName === null ? null : await openProbe(endpoints, bot.databaseName, cleanup);
    if (options.warmup > 0)
      await mentionLoad(sender, Math.min(options.rate, WARMUP_RATE), options.warmup, WARMUP_TIMEOUT_MS);
    // The statistics a running server has (`analyze`), for the floor's database and Summon's alike.
    await probe?.analyze();
    const cpuBefore = processCpuMs(bot.pid);
    const mainBefore = mainThreadCpuMs(bot.pid);
    const pgBefore = await probe?.read();
    const benchBefore = process.cpuUsage();
    standIns.takeCalls();
    const since = new Date();
    const load = await mentionLoad(sender, options.rate, Math.round(options.rate * options.seconds));
    const bench = process.cpuUsage(benchBefore);
    const calls = standIns.takeCalls();
    const cpu = processCpuMs(bot.pid) - cpuBefore;
    const main = mainThreadCpuMs(bot.pid) - mainBefore;
    const pgAfter = await probe?.read();
    const n = load.replies.count;
    const stages = summonRows ? ((await probe?.replyStages(since)) ?? null) : null;
    return {
      stages,
      label,
      ...load,
      cpuMsPerReply: cpu / n,
      mainThreadCpuMsPerReply: main / n,
      benchCpuMsPerReply: (bench.user + bench.system) / 1000 / n,
      slackCallsPerReply: Object.fromEntries([...calls].map(([method, c]) => [method, c / n])),
      postgresCpuMsPerReply:
        pgBefore === undefined || pgAfter === undefined
          ? null
          : (pgAfter.backendCpuMs - pgBefore.backendCpuMs) / n,
    };
  } finally {
    await cleanup.run();
  }
}

export async function openProbe(
  endpoints: Endpoints,
  name: string,
  cleanup: Cleanup,
): Promise<DatabaseProbe> {
  const url = endpoints.postgresServerUrl;
  const probe = await DatabaseProbe.open(url, databaseUrlFor(url, name), name);
  cleanup.defer('close the database probe', () => probe.close());
  return probe;
}

const roundBots = (round: RoundResults): BotResult[] => [
  round.bare,
  ...(round.floor === null ? [] : [round.floor]),
  ...round.setups,
];

const m = (x: Measurement) => `p50 ${ms(x.p50Ms).padStart(9)}  p99 ${ms(x.p99Ms).padStart(9)}`;

function row(r: BotResult): string {
  const pg = r.postgresCpuMsPerReply === null ? '' : ` + PostgreSQL ${r.postgresCpuMsPerReply.toFixed(2)}`;
  const calls = Object.entries(r.slackCallsPerReply)
    .map(([method, c]) => `${method} ${c.toFixed(2)}`)
    .join(', ');
  return `${r.label.padEnd(38)} ${r.replies.throughput.toFixed(1).padStart(6)} replies/s  reply ${m(r.replies)}  ack ${m(r.acks)}  cpu ${r.cpuMsPerReply.toFixed(2)} (main thread ${r.mainThreadCpuMsPerReply.toFixed(2)})${pg} ms/reply (bench ${r.benchCpuMsPerReply.toFixed(2)})\n  Slack calls per reply: ${calls}${stagesLine(r.stages)}`;
}

const stage = (s: StageTimes) => `p50 ${ms(s.p50Ms)}, p99 ${ms(s.p99Ms)}`;

function stagesLine(stages: ReplyStages | null): string {
  if (stages === null) return '';
  const parts =
    stages.replyStored === null || stages.posted === null
      ? ''
      : ` (claimed → reply stored ${stage(stages.replyStored)}; reply stored → its post marked sent ${stage(stages.posted)})`;
  return `\n  where replies waited (diagnostic, from its rows): stored → routed ${stage(stages.routed)}; routed → claimed ${stage(stages.claimed)}; claimed → finished ${stage(stages.turn)}${parts}`;
}

function goals(options: RealPathOptions, r: BotResult, bare: BotResult, floor: BotResult | null): string {
  const p99Ratio = r.replies.p99Ms / bare.replies.p99Ms;
  const throughputRatio = r.replies.throughput / bare.replies.throughput;
  // Beside the goals' ratios, not instead of them: the goals stay against the bare bot.
  const toFloor =
    floor === null
      ? ''
      : `; reply p99 ${(r.replies.p99Ms / floor.replies.p99Ms).toFixed(2)}× the floor's, throughput ${(r.replies.throughput / floor.replies.throughput).toFixed(2)}× the floor's`;
  const ratios = `reply p99 ${p99Ratio.toFixed(2)}× the bare bot's, throughput ${throughputRatio.toFixed(2)}× the bare bot's${toFloor}`;
  if (options.kind === 'instant')
    return `  ${ratios}  (targets at 200/s for 10 s: reply p99 ≤ ${TARGETS.instant.replyP99Ms} ms [${ms(r.replies.p99Ms)}], throughput ≥ ${TARGETS.instant.throughputRatio}× [${throughputRatio.toFixed(2)}×]; ack p99 ≤ ${ACK_P99_GOAL_MS} ms [${ms(r.acks.p99Ms)}])`;
  return `  ${ratios}  (target with a 5 s model, 40 mentions in 8 s: reply p99 ≤ ${TARGETS.turns.p99Ratio}× the bare bot's [${p99Ratio.toFixed(2)}×])`;
}

async function writeResults(
  options: RealPathOptions,
  rounds: RoundResults[],
  log: (line: string) => void,
): Promise<void> {
  const dir = join(__dirname, '..', 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${options.kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  // One round: its bots as `results`, as before rounds; several: `rounds`, each its bots.
  const results = rounds.length === 1 ? roundBots(rounds[0] as RoundResults) : undefined;
  const body = results === undefined ? { options, rounds: rounds.map(roundBots) } : { options, results };
  await writeFile(file, `${JSON.stringify(body, null, 2)}\n`);
  log(`results: ${file}`);
}
