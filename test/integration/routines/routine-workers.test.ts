import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { Redis } from 'ioredis';
import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import { TerminalPlatform } from '../../../src/bots/terminal';
import { ensureLocalChat } from '../../../src/core/workspace/local-chat';
import { ChildWorker } from '../../support/child-worker';
import { waitFor } from '../../support/engine-harness';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';
import { deleteKeysUnder, TEST_REDIS_URL } from '../queue/redis-test-prefix';

const ROUTINES = 12;

/** W2, T5: two worker processes on one PostgreSQL and one Redis, each running the scheduler. */
describe('W2 two worker processes with the same routines (PostgreSQL + BullMQ)', () => {
  const queueName = `routines-${randomUUID().slice(0, 8)}`;
  const prefix = `summon-test-routines-${randomUUID().slice(0, 8)}`;
  let db: TestDatabase | undefined;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>> | undefined;
  const children: ChildWorker[] = [];
  let redis: Redis;

  beforeAll(() => {
    redis = createRedisClient(TEST_REDIS_URL);
  });
  afterEach(async () => {
    for (const child of children.splice(0)) await child.kill('SIGKILL');
    await db?.dispose();
    await dataDir?.remove();
  });
  afterAll(async () => {
    await deleteKeysUnder(redis, prefix);
    await redis.quit();
  });

  it('W2 each routine due in the same second fires once: one head, one run, one firing', async () => {
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
    const { store } = db.database;
    const local = await store.transaction((tx) => ensureLocalChat(tx));
    const platform = new TerminalPlatform({ output: new PassThrough(), now: () => new Date() });
    const env = {
      WORKER_DATABASE_URL: db.databaseUrl ?? '',
      WORKER_REDIS_URL: TEST_REDIS_URL,
      WORKER_QUEUE: queueName,
      WORKER_PREFIX: prefix,
      WORKER_DATA_DIR: dataDir.path,
      WORKER_HEARTBEAT_MS: '1000',
      WORKER_DEAD_AFTER_MS: '60000',
      WORKER_CONCURRENCY: String(ROUTINES),
      WORKER_ROUTINES: '1',
    };
    children.push(ChildWorker.start(env, platform), ChildWorker.start(env, platform));
    for (const child of children) await child.waitForLine(/^WORKER_READY$/);

    // All due at one moment a little ahead, so both schedulers wake for it.
    const due = new Date(Date.now() + 1500);
    const ids = await store.transaction(async (tx) => {
      const qa = await tx.agents.findByName(local.workspace.id, 'qa');
      if (qa === null) throw new Error('qa is seeded');
      const target = { workspaceId: local.workspace.id, spaceId: local.space.id, agentId: qa.id };
      const made: string[] = [];
      for (let n = 0; n < ROUTINES; n += 1) {
        const routine = await tx.routines.save(
          target,
          {
            name: `r${n}`,
            agent: 'qa',
            prompt: `routine ${n}`,
            trigger: { kind: 'schedule', cron: '0 0 1 1 *', timezone: 'UTC' },
            onMissed: 'runOnce',
            budget: null,
            paused: false,
          },
          due,
        );
        made.push(routine.id);
      }
      return made;
    });
    const started = () => children.flatMap((c) => c.lines.filter((l) => l.startsWith('RUN_STARTED ')));
    await waitFor(async () => started().length >= ROUTINES, 60_000);
    // Give a late duplicate the chance to show before counting.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(started()).toHaveLength(ROUTINES);
    const firings = await store.transaction(async (tx) =>
      Promise.all(ids.map(async (id) => (await tx.routines.history(id, 10)).length)),
    );
    expect(firings).toEqual(ids.map(() => 1));
    const heads = platform.threads
      .list()
      .filter((t) => t.entries.some((e) => JSON.stringify(e).includes('Routine r')));
    expect(heads).toHaveLength(ROUTINES);
  });
});
