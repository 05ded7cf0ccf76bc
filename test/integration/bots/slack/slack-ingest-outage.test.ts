import type { Logger } from '../../../../src/core/ports/logger';
import { waitFor } from '../../../support/engine-harness';
import { OutageSwitch } from '../../../support/outage-switch';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

/** Events delivered while the database is away (with Slack's retries of some of them). */
const DURING_OUTAGE = 40;

/**
 * T2, T4: while the database is away every event's write fails and its ack is refused (Slack
 * delivers it again): designed behaviour. It is told once at warn when it begins and once when
 * an event is taken in again, with the count; no line per event at error level, which would
 * page an operator for what the design asks.
 */
describe('T2, T4: Slack events refused during a database outage are told once, at warn', () => {
  let h: SlackHarness;
  let database: OutageSwitch;
  const lines: { level: 'error' | 'warn'; message: string; fields: Record<string, unknown> }[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (fields, message) =>
      lines.push({ level: 'warn', message, fields: fields as Record<string, unknown> }),
    error: (fields, message) =>
      lines.push({ level: 'error', message, fields: fields as Record<string, unknown> }),
    child: () => logger,
  };

  const open = async (socketMode = false) => {
    lines.length = 0;
    h = await openSlackHarness({
      runner: new ScriptedRunner({}, replies('on it')),
      logger,
      socketMode,
      engineStore: (store) => {
        database = new OutageSwitch(store, { inbox: true });
        return database.store;
      },
    });
  };
  afterEach(() => h.close());

  /** The outage's own lines: one as it begins, one with the count once an event is taken in. */
  const toldOnce = (count: number) => {
    expect(lines.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([]);
    const outage = lines.filter((l) => /unavailable|meanwhile/.test(l.message));
    expect(outage.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'database unavailable: events are not taken in until it is back'],
      ['warn', `database back; ${count} events not taken in meanwhile`],
    ]);
  };

  const message = (n: number) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    return eventFrom(
      'message-channel',
      { ts, user: PEOPLE.mia.userId, text: '@engineer hi' },
      `Ev0OUTAGE${n}`,
    );
  };

  it('T2: events refused while the database is away: one warning as it begins, one with the count once it is back, no error lines', async () => {
    await open();
    database.down();
    const events = Array.from({ length: DURING_OUTAGE / 2 }, (_, i) => message(i));
    // Each event, and Slack's retry of it: every one refused (a 500, so Slack tries again).
    const statuses = await Promise.all([
      ...events.map((event) => h.deliver(event)),
      ...events.map((event) => h.deliver(event, { retryNum: 1 })),
    ]);
    expect(statuses.map((s) => s.status)).toEqual(Array(DURING_OUTAGE).fill(500));

    database.up();
    const after = await h.deliver(message(DURING_OUTAGE));
    expect(after.status).toBe(200);
    // Told before the ack: nothing to wait for.
    toldOnce(DURING_OUTAGE);
  });

  // T4: over Socket Mode too, an event is acknowledged once stored; one the database refused is
  // not, so Slack sends it again (`retry_attempt`) and it is taken in then, once.
  it('T2: over Socket Mode, events refused while the database is away go unacknowledged and are taken in when Slack sends them again', async () => {
    await open(true);
    await waitFor(async () => h.socket?.connected === true);
    const socket = h.socket;
    if (socket === null) throw new Error('no Socket Mode stand-in');
    database.down();
    const refused = Array.from({ length: 5 }, (_, i) => message(100 + i));
    const acks = await Promise.all(
      refused.map((event) => socket.trySend('events_api', event, { waitMs: 1500 })),
    );
    expect(acks).toEqual(Array(refused.length).fill(null));
    expect(database.refused).toBeGreaterThanOrEqual(refused.length);

    database.up();
    // Slack's retries of the unacknowledged events: each acknowledged now, and each run once.
    for (const event of refused)
      expect(await socket.trySend('events_api', event, { retryAttempt: 1 })).not.toBeNull();
    await socket.send('events_api', message(200));
    await waitFor(async () => {
      const runs = await h.runs();
      return runs.length === refused.length + 1 && runs.every((r) => r.status === 'succeeded');
    });
    await waitFor(async () => lines.some((l) => l.message.includes('meanwhile')));
    toldOnce(refused.length);
  });
});
