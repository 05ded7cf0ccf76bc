import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { OutageSwitch } from '../../../support/outage-switch';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';

/** Messages said while the database is away. */
const DURING_OUTAGE = 20;

/** pino's levels: 40 warn, 50 error. */
const lines = (h: DiscordHarness) =>
  h
    .log()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { level: number; msg: string });

/**
 * T2, T4: while the database is away Discord's messages cannot be taken in. That is told once
 * at warn when it begins and once when a message is taken in again, with the count; no line
 * per message at error level, which would page an operator for an outage they already know of.
 */
describe('T2, T4: Discord messages not taken in during a database outage are told once, at warn', () => {
  let h: DiscordHarness;
  let database: OutageSwitch;

  beforeEach(async () => {
    h = await openDiscordHarness({
      runner: new ScriptedRunner({}, replies('on it')),
      engineStore: (store) => {
        database = new OutageSwitch(store, { inbox: true });
        return database.store;
      },
    });
  });
  afterEach(() => h.close());

  it('T2: one warning as the outage begins, one with the count once it is back, no error lines', async () => {
    database.down();
    for (let i = 0; i < DURING_OUTAGE; i++) h.standIn.say(h.people.mo, h.channel, `@engineer during ${i}`);
    await waitFor(async () => database.refused >= DURING_OUTAGE, 10_000);
    await h.frontEnd.idle();

    database.up();
    h.standIn.say(h.people.mo, h.channel, '@engineer after');
    // Taken in: its turn runs.
    await h.settled(1);

    expect(
      lines(h)
        .filter((l) => l.level >= 50)
        .map((l) => l.msg),
    ).toEqual([]);
    expect(
      lines(h)
        .filter((l) => /unavailable|meanwhile/.test(l.msg))
        .map((l) => [l.level, l.msg]),
    ).toEqual([
      [40, 'database unavailable: events are not taken in until it is back'],
      [40, `database back; ${DURING_OUTAGE} events not taken in meanwhile`],
    ]);
  });
});
