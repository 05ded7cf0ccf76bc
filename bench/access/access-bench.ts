/**
 * `npm run bench -- access [--people 5000] [--burst 200] [--rounds 3] [--via receive,inbox]`:
 * P24's added routing cost.
 * On PostgreSQL, a Discord guild's workspace with `--people` explicit members and as many
 * people admitted by a server role (no entry), the real turn engine (routing only: no turn
 * runs). Each round sends three bursts of `--burst` messages, each from distinct people, all at
 * once: explicit members (the baseline, its place in the round turning), admitted people
 * writing for the first time (their member record is made), and the same admitted people again
 * (their role checked again); each round's ratios to its baseline, then their median. The
 * platform's side is an in-memory map of who holds which role, as discord.js's member cache
 * is; the ack (T4's ingest) stores the event without any look-up and is not changed by P24.
 * Two ways in (`--via`), each measured with people of its own: `receive`, each message routed
 * by `engine.receive` in its own transaction; `inbox`, as messages really arrive (T4): stored
 * by `engine.ingest`, then claimed and routed in batches by the inbox router (`access-inbox.ts`).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { DEFAULT_TIMINGS } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import type { AccessGroup } from '../../src/core/model/members/access-group';
import type { ChatPlatform, InboundMessage } from '../../src/core/ports/chat-platform';
import { silentLogger } from '../../src/core/ports/logger';
import type { HeldGroups, PlatformGroups } from '../../src/core/ports/platform-groups';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { parseWorkspaceFile } from '../../src/core/workspace/parse-workspace-file';
import { WorkspaceService } from '../../src/core/workspace/workspace-service';
import type { SqlStore } from '../../src/storage/store/sql-store';
import { openBenchDatabase } from '../core/bench-database';
import { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { InstantRunner } from '../core/instant-runner';
import { type Measurement, summarize } from '../core/stats';
import { InboxDriver } from './access-inbox';
import { AccessProbe, type BurstCounts } from './access-probe';
import { countsLine, type Round, summary } from './access-report';

const GUILD = '900000000000000001';
const CHANNEL = '900000000000000002';
const ROLE = '900000000000000003';
const EXPLICIT_BASE = 910_000_000_000_000_000n;
const ADMITTED_BASE = 920_000_000_000_000_000n;

const WAYS = ['receive', 'inbox'] as const;
type Way = (typeof WAYS)[number];

export interface AccessBenchOptions {
  people: number;
  burst: number;
  rounds: number;
  via: Way[];
}

export function parseAccessOptions(argv: readonly string[]): AccessBenchOptions {
  const flag = (name: string, fallback: number) => {
    const at = argv.indexOf(`--${name}`);
    const value = at === -1 ? fallback : Number(argv[at + 1]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
    return value;
  };
  const at = argv.indexOf('--via');
  const via = (at === -1 ? WAYS.join(',') : (argv[at + 1] ?? '')).split(',') as Way[];
  if (via.length === 0 || via.some((way) => !WAYS.includes(way)))
    throw new Error(`--via takes ${WAYS.join(', ')} (comma-separated)`);
  const options = {
    people: flag('people', 5000),
    burst: flag('burst', 200),
    rounds: flag('rounds', 3),
    via,
  };
  if (options.burst * options.rounds * via.length > options.people)
    throw new Error(
      '--burst × --rounds × ways must not exceed --people (every message from a distinct person)',
    );
  return options;
}

/** The guild's role holders, as the front end's member cache has them. */
class RoleHolders implements PlatformGroups {
  constructor(private readonly admitted: ReadonlySet<string>) {}
  async heldGroups(_team: string, userId: string, listed: readonly AccessGroup[]): Promise<HeldGroups> {
    const held = this.admitted.has(userId) ? listed.filter((g) => g.kind === 'role' && g.id === ROLE) : [];
    return {
      held,
      displayName: `person ${userId.slice(-6)}`,
      names: new Map([[`discord:role:${ROLE}`, 'contributors']]),
    };
  }
}

/** Discord as routing sees it: posts are counted (a refusal would be one), groups answered from memory. */
function benchPlatform(groups: PlatformGroups): ChatPlatform & { refusals: number } {
  const platform = {
    platform: 'discord' as const,
    refusals: 0,
    groups,
    post: async () => {
      platform.refusals += 1;
      return randomUUID();
    },
    update: async () => {},
    startThread: async () => ({ thread: randomUUID(), messageRef: randomUUID() }),
    tellPrivately: async () => {
      platform.refusals += 1;
    },
  };
  return platform;
}

export async function runAccessBench(
  options: AccessBenchOptions,
  endpoints: Endpoints,
  log: (line: string) => void,
): Promise<void> {
  const cleanup = new Cleanup();
  try {
    const database = await openBenchDatabase('postgres', endpoints.postgresServerUrl, cleanup);
    const store = database.store as SqlStore;
    const dataDir = await mkdtemp(join(tmpdir(), 'summon-bench-access-'));
    cleanup.defer(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
    const directory = new FileWorkspaceDirectory(dataDir);
    await new WorkspaceService(store, directory).apply(
      parseWorkspaceFile(`
workspace: acme
discord: { guildId: "${GUILD}" }
access:
  - { discord: { role: "${ROLE}" }, role: member }
spaces:
  - name: backend
    participants: [engineer]
    channels: [{ discord: "${CHANNEL}" }]
`),
    );
    const workspace = await store.transaction((tx) => tx.workspaces.findBySlug('acme'));
    if (workspace === null) throw new Error('the workspace was not applied');
    await store.transaction((tx) =>
      tx.query(
        `INSERT INTO members (workspace_id, nickname, role, discord_user_id)
         SELECT $1, 'explicit-' || g, 'member', ($2::numeric + g)::text FROM generate_series(1, $3::int) g`,
        [workspace.id, EXPLICIT_BASE.toString(), options.people],
      ),
    );
    const id = (base: bigint, n: number) => (base + BigInt(n)).toString();
    const admitted = new Set(Array.from({ length: options.people }, (_, i) => id(ADMITTED_BASE, i + 1)));
    const platform = benchPlatform(new RoleHolders(admitted));
    const engine = new TurnEngine({
      store,
      platforms: new Map([['discord', platform]]),
      queue: createJobQueue<RunJob>({ name: `access-${randomUUID().slice(0, 8)}`, logger: silentLogger }),
      runners: () => new InstantRunner(),
      rateLimiter: new InMemoryPairRateLimiter(),
      directory,
      clock: { now: () => new Date() },
      logger: silentLogger,
      relayName: null,
      timings: DEFAULT_TIMINGS,
    });
    cleanup.defer('close the engine', () => engine.close());
    const probe = await AccessProbe.open(database, (database.dataSource.options as { url: string }).url);
    cleanup.defer('close the probe', () => probe.close());
    await store.warm();
    await engine.start({ concurrency: 1, runTurns: false });

    let sent = 0;
    const message = (senderId: string): InboundMessage => {
      sent += 1;
      return {
        platform: 'discord',
        eventId: `bench-${sent}-${randomUUID()}`,
        workspace: { platform: 'discord', externalId: GUILD },
        channelId: CHANNEL,
        thread: `discord:${GUILD}:${CHANNEL}:${900_000 + sent}`,
        topLevel: true,
        // A Discord message id (a number: the back-fill cursor compares them).
        messageRef: String(930_000_000_000_000_000n + BigInt(sent)),
        senderId,
        text: `@engineer ping ${sent}`,
        receivedAt: new Date(),
      };
    };
    const inbox = new InboxDriver(engine);
    /** All at once; each message's time from its send to its routing's end (runs queued). */
    const burst = async (way: Way, senders: readonly string[]): Promise<Measured> => {
      await probe.start();
      const started = performance.now();
      const latencies = await Promise.all(
        senders.map(async (sender) => {
          const at = performance.now();
          const outcome =
            way === 'receive' ? await engine.receive(message(sender)) : await inbox.send(message(sender));
          if (outcome.kind !== 'accepted') throw new Error(`${sender}: ${JSON.stringify(outcome)}`);
          return performance.now() - at;
        }),
      );
      const time = summarize(latencies, performance.now() - started);
      return { time, counts: await probe.stop() };
    };
    const range = (base: bigint, from: number, count = options.burst) =>
      Array.from({ length: count }, (_, i) => id(base, from + i + 1));

    const measured = options.burst * options.rounds;
    // Each way's warm-up people, not measured: the top of each range, below the measured ones.
    const warm = Math.min(
      options.burst,
      Math.floor((options.people - measured * options.via.length) / options.via.length),
    );
    for (const [w, way] of options.via.entries()) {
      // Warm-up, not measured: each of the three bursts once (the admission's code compiled, its
      // prepared statement planned on the connections), as on a server that has run a while.
      if (warm > 0) {
        const top = options.people - (w + 1) * warm;
        await burst(way, range(EXPLICIT_BASE, top, warm));
        await burst(way, range(ADMITTED_BASE, top, warm));
        await burst(way, range(ADMITTED_BASE, top, warm));
      }
      const results: Round[] = [];
      for (let round = 0; round < options.rounds; round++) {
        // Each way its own people: an admitted person's first write happens once.
        const from = w * measured + round * options.burst;
        // The baseline brackets the admitted bursts (explicit, first write, again, explicit: the
        // same explicit people twice, whose messages change nothing of theirs), and each admitted
        // burst is compared with the baseline drawn between the two at its place: a load that
        // grows or fades steadily through a round weighs on both sides alike.
        const explicit = await burst(way, range(EXPLICIT_BASE, from));
        const first = await burst(way, range(ADMITTED_BASE, from));
        const again = await burst(way, range(ADMITTED_BASE, from));
        const explicitAfter = await burst(way, range(EXPLICIT_BASE, from));
        results.push({ explicit, first, again, explicitAfter });
        log(
          `${way}, round ${round + 1}: ${options.burst} messages at once — explicit ${fmt(explicit.time)}; ` +
            `admitted, first write ${fmt(first.time)}; admitted again ${fmt(again.time)}; ` +
            `explicit ${fmt(explicitAfter.time)}`,
        );
        for (const [name, m] of [
          ['explicit', explicit],
          ['first write', first],
          ['again', again],
          ['explicit', explicitAfter],
        ] as const)
          log(`  ${name}: ${countsLine(m.counts, options.burst)}`);
      }
      if (platform.refusals > 0) throw new Error(`${platform.refusals} messages were refused`);
      log(`${way}: ${summary(results, options)}`);
      const { admitted: made, offFirst } = await probe.admittedOffFirstNickname();
      log(
        `${way}: ${made} admitted records so far, ${offFirst} not under the first nickname offered (P24's fallback)`,
      );
    }
  } finally {
    await cleanup.run();
  }
}

const fmt = (m: Measurement) =>
  `${m.elapsedMs.toFixed(0)} ms (p50 ${m.p50Ms.toFixed(0)}, p99 ${m.p99Ms.toFixed(0)} ms)`;

interface Measured {
  time: Measurement;
  counts: BurstCounts;
}
