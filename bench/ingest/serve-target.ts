import { Client } from 'pg';
import { databaseUrlFor } from '../../src/storage/server-admin';
import type { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { openStandIns } from '../realpath/stand-ins';
import { startSummon } from '../realpath/summon-process';
import type { IngestTarget } from './ingest-targets';

/**
 * The real `summon serve` in a child process (`realpath/summon-process.ts`), its space shared so
 * a plain message is stored and starts nothing (P3), the in-process queue. Routed: on PostgreSQL,
 * read from its inbox through a connection of this process; on PGlite (the child holds the
 * database) not known, so `drained` answers at once.
 */
export async function openServe(
  database: 'postgres' | 'pglite',
  endpoints: Endpoints,
  cleanup: Cleanup,
): Promise<IngestTarget> {
  const standIns = await openStandIns(0, cleanup);
  const summon = await startSummon(
    { label: 'serve', database, bullmq: false, shared: true },
    endpoints,
    standIns,
    cleanup,
  );
  if (summon.databaseName === null) return { url: summon.eventsUrl, pid: summon.pid, drained: async () => 0 };
  const client = new Client({
    connectionString: databaseUrlFor(endpoints.postgresServerUrl, summon.databaseName),
  });
  await client.connect();
  cleanup.defer('close the inbox reader', () => client.end());
  const pending = async () =>
    Number(
      (await client.query<{ n: string }>('SELECT count(*) AS n FROM inbound_inbox WHERE routed_at IS NULL'))
        .rows[0]?.n ?? 0,
    );
  return {
    url: summon.eventsUrl,
    pid: summon.pid,
    analyze: async () => {
      await client.query('ANALYZE');
    },
    drained: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const left = await pending();
        if (left === 0 || Date.now() > deadline) return left;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
