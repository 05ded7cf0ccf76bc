import type { ThreadEntry } from '../../../src/bots/terminal';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  held,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { replies, ScriptedRunner } from '../../support/scripted-runner';

/** The harness's queue close timeout: how long `close()` waits before handing turns back. */
const CLOSE_TIMEOUT_MS = 2000;

const cardOf = (entries: readonly ThreadEntry[]) =>
  entries.flatMap((e) =>
    e.kind === 'posted' && e.message.content.kind === 'status' ? [e.message.content.card] : [],
  );

describe.each(ENGINE_SETUPS)('graceful close (SIGTERM) on $name', (setup) => {
  let h: EngineHarness;
  afterEach(() => h.close());

  it('A12: a turn still running at the close timeout is handed back queued, its card says so, and the next worker runs it once', async () => {
    const interrupted = held('never sent');
    const first = new ScriptedRunner({ engineer: interrupted.script });
    h = await openEngineHarness(setup, first);
    await h.type('@engineer long task');
    await interrupted.started;

    const closing = Date.now();
    await h.engine.close();
    expect(Date.now() - closing).toBeGreaterThanOrEqual(CLOSE_TIMEOUT_MS - 100);

    // Recorded before close resolved: the process may exit right after.
    const [run] = await h.runs();
    expect(run).toMatchObject({ status: 'queued', liveness: 'ok', startedAt: null, error: null });
    expect(h.thread(1).map(describeEntry)).toEqual(['you: @engineer long task', 'status(stopped) engineer']);
    expect(cardOf(h.thread(1))[0]?.headline).toBe('Interrupted; it will start again');

    const next = new ScriptedRunner({}, replies('done after the restart'));
    await h.restart(next);
    const [finished] = await h.settled(1);
    expect(finished).toMatchObject({ id: run?.id, status: 'succeeded', liveness: 'ok' });
    await waitFor(async () =>
      h.thread(1).some((e) => describeEntry(e) === 'engineer: done after the restart'),
    );
    // The same card carries on (edited in place), and the reply is posted once.
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @engineer long task',
      'status(done) engineer',
      'engineer: done after the restart',
    ]);
    expect(first.requests).toHaveLength(1);
    expect(next.requests).toHaveLength(1);
  });

  it('a turn that finishes within the close timeout finishes normally: close waits for it', async () => {
    const turn = held('finished in time');
    h = await openEngineHarness(setup, new ScriptedRunner({ engineer: turn.script }));
    await h.type('@engineer quick task');
    await turn.started;

    let closed = false;
    const closing = h.engine.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closed).toBe(false);
    turn.release();
    await closing;

    const [run] = await h.runs();
    expect(run).toMatchObject({ status: 'succeeded', liveness: 'ok' });
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @engineer quick task',
      'status(done) engineer',
      'engineer: finished in time',
    ]);
  });
});
