import { webApi } from '@slack/bolt';
import { SlackSender } from '../../src/bots/slack/outbound/slack-sender';
import { OutboxDeliverer } from '../../src/core/outbox/outbox-deliverer';
import { type Logger, silentLogger } from '../../src/core/ports/logger';
import type { SqlStoreTx } from '../../src/storage/store/sql-store';
import { CHANNEL } from './slack-delivery';
import { SlackWebApiStandIn } from './stand-ins/slack-web-api-stand-in';
import { openTestDatabase, type TestDatabase } from './test-database';

/**
 * P7, T2, A12: the outbox of several workers on one PostgreSQL database, each worker a deliverer
 * of its own posting through the real Web API client to the Slack stand-in; `close` drains them.
 */
export interface OutboxWorkers {
  db: TestDatabase;
  standIn: SlackWebApiStandIn;
  workspaceId: string;
  /** A worker's deliverer (quick back-off; `abandonAfterMs` as given, else the default). */
  deliverer(abandonAfterMs?: number, logger?: Logger): OutboxDeliverer;
  /** The outbox's rows in order, with `columns`. */
  rows<T extends object>(columns: string): Promise<T[]>;
  close(): Promise<void>;
}

export async function openOutboxWorkers(slug: string): Promise<OutboxWorkers> {
  const db = await openTestDatabase('postgres');
  const standIn = new SlackWebApiStandIn({ channels: [CHANNEL] });
  const url = await standIn.listen();
  const { id: workspaceId } = await db.database.store.transaction((tx) =>
    tx.workspaces.insert({ slug, name: slug }),
  );
  const drains: (() => Promise<void>)[] = [];
  return {
    db,
    standIn,
    workspaceId,
    deliverer(abandonAfterMs, logger = silentLogger) {
      const client = new webApi.WebClient(standIn.token, {
        slackApiUrl: url,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        timeout: 30_000,
        logLevel: webApi.LogLevel.ERROR,
      });
      const d = new OutboxDeliverer({
        store: db.database.store,
        platform: 'slack',
        sender: new SlackSender(client),
        logger,
        backoff: { baseMs: 20, maxMs: 50 },
        ...(abandonAfterMs === undefined ? {} : { abandonAfterMs }),
      });
      drains.push(() => d.drain());
      return d;
    },
    rows: <T extends object>(columns: string) =>
      db.database.store.transaction((tx) =>
        (tx as SqlStoreTx).query<T>(`SELECT ${columns} FROM outbox ORDER BY seq`),
      ),
    async close() {
      standIn.up();
      for (const drain of drains.splice(0)) await drain();
      await standIn.close();
      await db.dispose();
    },
  };
}
