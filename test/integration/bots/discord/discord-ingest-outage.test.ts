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
 * What was said meanwhile is not lost: once the database is back it is read back from the
 * channel's history and answered, once each, in the order it was said.
 */
describe('T2, T4: Discord messages said during a database outage are told once, at warn, and answered after', () => {
  let h: DiscordHarness;
  let database: OutageSwitch;
  let runner: ScriptedRunner;

  beforeEach(async () => {
    runner = new ScriptedRunner({}, replies('on it'));
    h = await openDiscordHarness({
      runner,
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
    // Taken in, after the ones said during the outage (read back from the channel's history).
    await h.settled(DURING_OUTAGE + 1, 60_000);
    // Each answered once (each mention is its own thread, so their turns run side by side).
    const asked = runner.requests.map((r) => r.prompt.split('## Prompt').at(-1)?.trim());
    const said = [...Array.from({ length: DURING_OUTAGE }, (_, i) => `during ${i}`), 'after'];
    expect(asked.sort()).toEqual(said.sort());

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
      [40, expect.stringMatching(/^database back; \d+ events not taken in meanwhile$/)],
    ]);
    expect(lines(h).filter((l) => /taken in from the channel history/.test(l.msg))).toHaveLength(1);
  });
  it('T2: with nothing said after the outage, what was said during it is still read back and answered', async () => {
    database.down();
    for (let i = 0; i < 3; i++) h.standIn.say(h.people.mo, h.channel, `@engineer quiet ${i}`);
    await waitFor(async () => database.refused >= 3, 10_000);
    await h.frontEnd.idle();

    database.up();
    await h.settled(3, 60_000);
    const asked = runner.requests.map((r) => r.prompt.split('## Prompt').at(-1)?.trim());
    expect(asked.sort()).toEqual(['quiet 0', 'quiet 1', 'quiet 2']);
  });
});
