import type { Store } from '../../../src/core/ports/store';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  type EngineSetup,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { readableMessage, recordMessages } from '../../support/logged-messages';
import { replies, repliesInTurn, ScriptedRunner } from '../../support/scripted-runner';

/** The lane claim's statement (`RunLaneRepository.claimNext`), as the store sends it. */
const CLAIM = /UPDATE runs SET status = 'running'/;

/**
 * A store whose routing transactions (`transaction`, the system context routing uses) can be
 * made to fail once their work is done (rolled back after every statement was sent), or to
 * wait before their COMMIT.
 */
function routingTransactions(store: Store) {
  const control = { failNext: false, waitMs: 0 };
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'transaction') {
        return <T>(work: Parameters<Store['transaction']>[0]) =>
          target.transaction(async (tx) => {
            const result = (await work(tx)) as T;
            if (control.failNext) {
              control.failNext = false;
              throw new Error('rolled back by the test');
            }
            if (control.waitMs > 0) {
              const waitMs = control.waitMs;
              control.waitMs = 0;
              await new Promise((resolve) => setTimeout(resolve, waitMs));
            }
            return result;
          });
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, control };
}

/** The engine harness on `setup`, its store's routing transactions under the test's `control`. */
async function openWithRoutingControl(
  setup: EngineSetup,
  runner: ScriptedRunner,
  timings: Parameters<typeof openEngineHarness>[2],
  concurrency?: number,
) {
  let routing: ReturnType<typeof routingTransactions> | undefined;
  const h = await openEngineHarness(setup, runner, timings, {
    ...(concurrency === undefined ? {} : { concurrency }),
    wrapStore: (store) => {
      routing = routingTransactions(store);
      return routing.store;
    },
  });
  if (routing === undefined) throw new Error('the store was not wrapped');
  return { h, control: routing.control };
}

/**
 * T3 (issue 34): a person's message that starts a thread has its runs claimed by its routing
 * when this process can start them at once: stored `running`, their turn's reads asked in the
 * routing transaction, so the turn starts after the COMMIT with no claim of its own. T2: a hold
 * whose routing rolled back gives its slot back; a run whose hold lapsed is queued again.
 */
describe.each(ENGINE_SETUPS)('T3: a new thread’s run claimed with its routing, on $name', (setup) => {
  let h: EngineHarness;
  afterEach(() => h.close());

  it('T3: a new thread’s turn starts with no claim of its own; a reply in the thread claims as before', async () => {
    const runner = new ScriptedRunner({}, repliesInTurn('first answer', 'second answer'));
    h = await openEngineHarness(setup, runner);
    const messages: string[] = [];
    recordMessages(h.db.database.dataSource, (query) => void messages.push(readableMessage(query)));

    await h.type('@engineer hello');
    const [first] = await h.settled(1);
    expect(first).toMatchObject({ status: 'succeeded', liveness: 'ok' });
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e) === 'engineer: first answer'));
    expect(messages.filter((message) => CLAIM.test(message))).toEqual([]);

    messages.length = 0;
    await h.type('@engineer again');
    const runs = await h.settled(2);
    expect(runs.map((run) => run.status)).toEqual(['succeeded', 'succeeded']);
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e) === 'engineer: second answer'));
    expect(messages.filter((message) => CLAIM.test(message))).toHaveLength(1);
    expect(runner.requests).toHaveLength(2);
    await waitFor(async () => (h.engine.slotStats().active === 0 ? true : null));
  });

  it('T2: a routing that rolls back stores no run, and the slot it held is given back at once', async () => {
    const runner = new ScriptedRunner({}, replies('answered'));
    const opened = await openWithRoutingControl(setup, runner, {}, 1);
    h = opened.h;
    opened.control.failNext = true;
    await h.type('@engineer lost');
    expect(h.screen()).toContain('rolled back by the test');
    expect(await h.runs()).toEqual([]);
    // The one slot, held for the run the rolled-back routing claimed, is free again.
    expect(h.engine.slotStats()).toMatchObject({ active: 0, waiting: 0 });

    await h.type('/new');
    await h.type('@engineer hello');
    const [run] = await h.settled(1);
    expect(run).toMatchObject({ status: 'succeeded', liveness: 'ok' });
    expect(runner.requests).toHaveLength(1);
  });

  it('T2: a run whose hold lapsed before its routing committed is queued again, and answered once', async () => {
    const runner = new ScriptedRunner({}, replies('answered after the hand-back'));
    const opened = await openWithRoutingControl(setup, runner, { heartbeatMs: 200 });
    h = opened.h;
    const messages: string[] = [];
    recordMessages(h.db.database.dataSource, (query) => void messages.push(readableMessage(query)));
    // The routing commits after its hold has lapsed (slower than a heartbeat).
    opened.control.waitMs = 600;
    await h.type('@engineer hello');
    const [run] = await h.settled(1);
    expect(run).toMatchObject({ status: 'succeeded', liveness: 'ok' });
    await waitFor(async () =>
      h.thread(1).some((e) => describeEntry(e) === 'engineer: answered after the hand-back'),
    );
    expect(runner.requests).toHaveLength(1);
    // Queued again, it was claimed as any queued run is.
    expect(messages.filter((message) => CLAIM.test(message))).toHaveLength(1);
    await waitFor(async () => (h.engine.slotStats().active === 0 ? true : null));
  });
});
