/**
 * The durable floor bot's three tables and its three writes a reply (`durable-bot.ts`). The keys
 * are the rules', nothing more: the inbox by the event's de-duplication key (T4; P6's
 * `{channel}:{ts}`, as Summon's Slack front end keys a message), one reply per inbox row, one
 * outbox row per outgoing call (P7). No foreign keys: the rules do not ask for them.
 */
export const FLOOR_SCHEMA = [
  `CREATE TABLE inbox (
    event_key text PRIMARY KEY,
    payload jsonb NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now())`,
  // A reply row for an inbox row is also what says the event was handled: after a crash, the
  // inbox rows without one are the events still to answer (T4's resume), with no write of its own.
  `CREATE TABLE replies (
    event_key text PRIMARY KEY,
    text text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE outbox (
    id bigserial PRIMARY KEY,
    event_key text NOT NULL,
    method text NOT NULL,
    params jsonb NOT NULL,
    status text NOT NULL DEFAULT 'sending',
    platform_ref text,
    sent_at timestamptz)`,
];

/** Named statements: each parsed and planned once per connection, as Summon's inbox writes are. */
export const FLOOR_STATEMENTS = {
  /** T4: the ack's one durable write; no row back means a repeat delivery, acked and not answered. */
  inbox: {
    name: 'floor-inbox',
    text: 'INSERT INTO inbox (event_key, payload) VALUES ($1, $2) ON CONFLICT DO NOTHING',
  },
  /** P7: the reply and its outgoing call, one statement and so one transaction, before the call. */
  reply: {
    name: 'floor-reply',
    text: `WITH reply AS (INSERT INTO replies (event_key, text) VALUES ($1, $2) RETURNING event_key)
      INSERT INTO outbox (event_key, method, params)
      SELECT event_key, 'chat.postMessage', $3 FROM reply RETURNING id`,
  },
  /** P7: the call answered, its ts kept. */
  sent: {
    name: 'floor-sent',
    text: "UPDATE outbox SET status = 'sent', platform_ref = $2, sent_at = now() WHERE id = $1",
  },
} as const;
