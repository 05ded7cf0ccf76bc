import { startServer } from '../../../src/app/server';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

const redisUrl = () => process.env.SUMMON_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function readyz(port: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('/readyz (database, migrations, queue)', () => {
  it('200 with the database and Redis reachable and migrations current; 503 naming pending migrations, then an unreachable database', async () => {
    const dataDir = await makeTempDir();
    // Its readiness, not making the database: it starts migrated (the test reverts one itself).
    await seedMigratedDataDir(dataDir.path);
    const server = await startServer(
      { SUMMON_DATA_DIR: dataDir.path, PORT: '0', LOG_LEVEL: 'silent', REDIS_URL: redisUrl() },
      dataDir.path,
      { chatFrontEnds: false },
    );
    try {
      expect(await readyz(server.port)).toEqual({
        status: 200,
        body: { status: 'ready', database: 'ok', queue: 'ok', migrations: 'ok', problems: [] },
      });

      const reverted = await server.runtime.database.revert();
      const notMigrated = await readyz(server.port);
      expect(notMigrated.status).toBe(503);
      expect(notMigrated.body).toMatchObject({ status: 'not ready', migrations: `pending: ${reverted}` });
      expect(notMigrated.body.problems).toEqual([
        `migrations are not current (${reverted}): run \`summon db migrate\``,
      ]);
      await server.runtime.database.migrate();
      expect((await readyz(server.port)).status).toBe(200);

      await server.runtime.database.close();
      const noDatabase = await readyz(server.port);
      expect(noDatabase.status).toBe(503);
      expect(noDatabase.body.database).toMatch(/^unreachable: /);
      expect(noDatabase.body.problems).toEqual([expect.stringMatching(/^the database is unreachable/)]);
      // The process itself is alive.
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
      await dataDir.remove();
    }
  });

  it('503 naming the queue when REDIS_URL points where no Redis answers (the URL is not shown)', async () => {
    const dataDir = await makeTempDir();
    await seedMigratedDataDir(dataDir.path);
    const server = await startServer(
      {
        SUMMON_DATA_DIR: dataDir.path,
        PORT: '0',
        LOG_LEVEL: 'silent',
        REDIS_URL: 'redis://:s3cret-pass@127.0.0.1:6399',
      },
      dataDir.path,
      { chatFrontEnds: false },
    );
    try {
      const answer = await readyz(server.port);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ status: 'not ready', database: 'ok', migrations: 'ok' });
      expect(answer.body.queue).toMatch(/^unreachable: .*ECONNREFUSED/);
      expect(answer.body.problems).toEqual([expect.stringMatching(/^the queue's Redis is unreachable/)]);
      expect(JSON.stringify(answer.body)).not.toContain('s3cret-pass');
    } finally {
      await server.close();
      await dataDir.remove();
    }
  });
});
