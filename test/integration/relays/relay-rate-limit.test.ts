import { waitFor } from '../../support/engine-harness';
import { openRelaySide, type RelaySide } from '../../support/relay-pair';
import {
  firstText,
  mentionOn,
  pairSides,
  replyIn,
  say,
  task,
  toolResults,
  use,
} from '../../support/relay-script';
import type { StandInReply } from '../../support/stand-ins/anthropic-stand-in';

jest.setTimeout(600_000);

/** R3: relay-b takes at most this many notes from relay-a per agent per 10 minutes. */
const LIMIT = 2;
/** The sentence relay-b refuses a note beyond the limit with (`rate_limited`, 429). */
const REFUSAL =
  'Relay relay-b is not taking more notes from relay-a for qa right now (too many in a short time). Try again later.';

/** Relay A: in one turn, engineer sends qa@relay-b three notes, asks it once more, then notes architect. */
const replyOfA = (body: Record<string, unknown>): StandInReply => {
  const results = toolResults(body);
  const steps: Array<[string, Record<string, unknown>]> =
    task(body) === 'task-limit'
      ? [
          ['send_to_agent', { agent: 'qa@relay-b', text: 'note 1 of the burst' }],
          ['send_to_agent', { agent: 'qa', relay: 'relay-b', text: 'note 2 of the burst' }],
          ['send_to_agent', { agent: 'qa@relay-b', text: 'note 3 of the burst' }],
          ['ask_agent', { agent: 'qa@relay-b', text: 'note 4 of the burst' }],
          ['send_to_agent', { agent: 'architect@relay-b', text: 'note 5 of the burst' }],
        ]
      : [];
  const next = steps[results.length];
  return next === undefined ? say(`A got: ${results.join('\n---\n')}`) : use(next[0], next[1]);
};

/**
 * R3's per-pair rate limit end to end, with two real Summon processes paired through
 * `summon relays pair` (as `paired-relays.test.ts`; a pair of their own, since relay-b starts
 * with a low `SUMMON_RELAY_RATE_LIMIT` that would refuse the other files' notes).
 */
describe('paired relays: the per-pair rate limit and send_to_agent', () => {
  let a: RelaySide;
  let b: RelaySide;
  /** relay-b's model calls wait for this, so its turns are still running when A's turn ends. */
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    [a, b] = await Promise.all([
      openRelaySide('relay-a', replyOfA),
      openRelaySide(
        'relay-b',
        () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['four'] }], after: held }),
        { SUMMON_RELAY_RATE_LIMIT: String(LIMIT) },
      ),
    ]);
    await pairSides(a, b);
  });
  afterAll(async () => {
    release();
    await Promise.all([a?.close(), b?.close()]);
  });

  it('R2, R3: send_to_agent returns at once; notes beyond the limit are refused with the sentence, logged on B, and start nothing', async () => {
    const ts = await mentionOn(a, 'engineer', 'task-limit');
    await replyIn(a, ts);
    const last = a.model.requests.filter((r) => task(r.body) === 'task-limit').at(-1);
    const results = toolResults(last?.body ?? {});
    expect(results).toHaveLength(5);
    // R2: send_to_agent returned with its sentence while B's turns were still held (at once).
    const sent = (n: number, agent = 'qa') =>
      `Sent to ${agent} in a new conversation in space general ("note ${n} of the burst") on relay relay-b; it is working on it. Its reply will appear there.`;
    expect(results[0]).toBe(sent(1));
    expect(results[1]).toBe(sent(2));
    expect((await b.runs()).filter((r) => r.status === 'succeeded')).toEqual([]);
    // R3: the third and fourth notes to qa within the window are refused; the sentence is the
    // sending agent's tool result, for send_to_agent and ask_agent alike.
    expect(results[2]).toBe(`send_to_agent refused by relay relay-b: ${REFUSAL}`);
    expect(results[3]).toBe(`ask_agent refused by relay relay-b: ${REFUSAL}`);
    // The count is per pair and agent: architect still takes a note.
    expect(results[4]).toBe(sent(5, 'architect'));

    // Only the placed notes started turns on B; the refused ones reached no model.
    release();
    await b.settle();
    const triggers = await b.store.inWorkspace(b.workspaceId, async (tx) => {
      const runs = await tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']);
      const ids = runs.flatMap((r) => (r.triggerMessageId === null ? [] : [r.triggerMessageId]));
      const notes = await Promise.all(ids.map((id) => tx.messages.findById(id)));
      return notes.map((m) => m?.text ?? '').sort();
    });
    expect(triggers).toEqual(['note 1 of the burst', 'note 2 of the burst', 'note 5 of the burst']);
    expect((await b.runs()).every((r) => r.status === 'succeeded')).toBe(true);
    const prompted = b.model.requests.map((r) => firstText(r.body));
    expect(prompted.some((t) => /note [34] of the burst/.test(t))).toBe(false);
    expect(b.slack.messages.filter((m) => m.threadTs === null && m.text.includes('↗ relay-a'))).toHaveLength(
      3,
    );

    // B logs each refusal with its code and sentence; A logs the 429 it got back.
    const logged = (side: RelaySide, message: string) =>
      side.server.lines
        .filter((l) => l.includes(message))
        .map((l) => ({ line: l, fields: JSON.parse(l) as Record<string, unknown> }));
    await waitFor(async () => logged(b, 'relay request refused').length >= 2);
    expect(logged(b, 'relay request refused').map((l) => [l.fields.code, l.fields.reason])).toEqual([
      ['rate_limited', REFUSAL],
      ['rate_limited', REFUSAL],
    ]);
    const onA = logged(a, 'a paired relay refused a request');
    expect(onA.map((l) => [l.fields.status, l.fields.code])).toEqual([
      [429, 'rate_limited'],
      [429, 'rate_limited'],
    ]);
    // Its child logger names the component; the line carries the key once.
    for (const { line } of onA) expect(line.match(/"component":/g)).toHaveLength(1);
  });
});
