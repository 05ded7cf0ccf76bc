import { Pool } from 'pg';
import { baselineAnswer, baselineAnthropic, baselineApp, setting } from './bot-setup';
import { FLOOR_STATEMENTS } from './durable-floor-sql';

/**
 * The durable floor, run as its own process (`durable-bot-process.ts` starts it): the bare bot
 * (`bare-bot.ts`: the same Bolt HTTP receiver, the same streamed Anthropic SDK call, the same one
 * `chat.postMessage`) plus the least writing the rules demand of any bot that keeps Summon's
 * durability promises, on a PostgreSQL database of its own (`durable-floor-sql.ts`):
 *
 * - T4: the ack goes out only once the event's row is stored in the inbox keyed by its
 *   de-duplication key (one autocommitted INSERT … ON CONFLICT DO NOTHING, the delivery as
 *   jsonb). Bolt holds the HTTP response until the listener returns (`processBeforeResponse`),
 *   and the listener awaits only that INSERT; a repeat delivery inserts nothing, is acked and
 *   is not answered again. A failed INSERT fails the delivery (Bolt answers 500; Slack retries).
 * - P7: before the post, the reply and its outgoing call are stored together (one statement,
 *   so one transaction: a `replies` row and an `outbox` row, status `sending`); once Slack
 *   answers, the outbox row is marked sent with the message's ts (one UPDATE).
 *
 * Three commits a reply. The inbox writes have two connections of their own, as Summon's do, so
 * an ack never waits behind a reply's writes; the replies' writes have two more. What runs after
 * the ack is not awaited by it: its failures are counted and logged, never unhandled.
 *
 * The floor, not a second Summon: no routing, no runs table, no status card, no agents, no
 * recovery (after a crash it would answer the inbox rows with no reply and fail the outbox rows
 * left `sending`; that costs nothing a reply, so the floor leaves it out). What it measures is
 * what this machine allows a bot that writes what T4 and P7 require.
 */

// Connections per pool: the inbox's as Summon's (`INBOX_CONNECTIONS`), the replies' as many.
const CONNECTIONS = 2;

async function main(): Promise<void> {
  const anthropic = baselineAnthropic();
  const databaseUrl = setting('DATABASE_URL');
  const inbox = new Pool({ connectionString: databaseUrl, max: CONNECTIONS, min: CONNECTIONS });
  const replies = new Pool({ connectionString: databaseUrl, max: CONNECTIONS, min: CONNECTIONS });
  let failures = 0;
  const failed = (error: unknown) => {
    failures += 1;
    console.error(`durable floor: a reply failed after its ack (${failures} so far):`, error);
  };
  // An idle connection lost: the pool forgets it and reconnects; said, so the run is not trusted blindly.
  for (const pool of [inbox, replies])
    pool.on('error', (error) => console.error('durable floor: an idle connection was lost:', error));
  const app = baselineApp(true);
  app.event('app_mention', async ({ event, body, client }) => {
    const key = `${event.channel}:${event.ts}`;
    const stored = await inbox.query({ ...FLOOR_STATEMENTS.inbox, values: [key, JSON.stringify(body)] });
    if (stored.rowCount === 0) return;
    const answer = async () => {
      const text = await baselineAnswer(anthropic, event.text);
      const params = { channel: event.channel, thread_ts: event.ts, text };
      const outbox = await replies.query<{ id: string }>({
        ...FLOOR_STATEMENTS.reply,
        values: [key, text, JSON.stringify(params)],
      });
      const posted = await client.chat.postMessage(params);
      await replies.query({ ...FLOOR_STATEMENTS.sent, values: [outbox.rows[0]?.id, posted.ts] });
    };
    answer().catch(failed);
  });
  await app.start(Number(setting('PORT')));
  process.once('SIGTERM', () => {
    console.error(`durable floor: ${failures} replies failed after their ack`);
    void app
      .stop()
      .then(() => Promise.all([inbox.end(), replies.end()]))
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
