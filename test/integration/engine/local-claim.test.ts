import { PrometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics';
import type { Store } from '../../../src/core/ports/store';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  held,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { parsePrometheusText, sampleValue } from '../../support/scrape-metrics';
import { replies, repliesInTurn, ScriptedRunner } from '../../support/scripted-runner';

/** How this process woke its queued turns: started here (no queue job) or through the queue. */
async function wakeups(metrics: PrometheusMetrics): Promise<{ local: number; queue: number }> {
  const families = parsePrometheusText(await metrics.text());
  return {
    local: sampleValue(families, 'summon_turn_wakeups_total', { path: 'local' }),
    queue: sampleValue(families, 'summon_turn_wakeups_total', { path: 'queue' }),
  };
}

/** A store whose next `inWorkspace` (armed: the local lane's claim, routing uses `transaction`) fails once. */
function failingOnce(store: Store): { store: Store; arm(): void } {
  let armed = false;
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'inWorkspace') {
        return (...args: Parameters<Store['inWorkspace']>) => {
          if (!armed) return target.inWorkspace(...args);
          armed = false;
          return Promise.reject(new Error('the claim failed (the test made it fail)'));
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, arm: () => (armed = true) };
}

/**
 * What routing leaves when its process dies right after committing and before its local claim:
 * a person's message and its run, `queued`, with no queue job. Stored in the conversation of
 * thread 1, for `agent`.
 */
async function routedAndAbandoned(h: EngineHarness, agent: string, text: string): Promise<string> {
  const [first] = await h.runs();
  if (first === undefined) throw new Error('thread 1 has no run yet');
  const agentId = await h.agentId(agent);
  return h.read(async (tx) => {
    const message = await tx.messages.insert(h.local.workspace.id, {
      conversationId: first.conversationId,
      authorKind: 'person',
      authorAgentId: null,
      authorMemberId: h.local.member.id,
      text,
      mentions: { agents: [{ agentId, name: agent }], members: [] },
      platformMessageRef: null,
      note: null,
    });
    const run = await tx.runs.insert({
      workspaceId: h.local.workspace.id,
      agentId,
      conversationId: first.conversationId,
      triggerMessageId: message.id,
      status: 'queued',
      liveness: 'ok',
      wakeChain: [agentId],
      depth: 1,
      startedByMemberId: h.local.member.id,
      startedByAgentId: null,
      startedAt: null,
      finishedAt: null,
      lastEventAt: null,
      error: null,
      createdAt: new Date(),
    });
    return run.id;
  });
}

describe.each(ENGINE_SETUPS)('T3: a routed turn started by the process that routed it, on $name', (setup) => {
  let h: EngineHarness;
  afterEach(() => h.close());

  it('T3: with a slot free, the turn starts here without a queue job, and is answered once', async () => {
    const metrics = new PrometheusMetrics();
    const runner = new ScriptedRunner({}, replies('answered here'));
    h = await openEngineHarness(setup, runner, {}, { metrics });
    await h.type('@engineer hello');
    const [run] = await h.settled(1);
    expect(run).toMatchObject({ status: 'succeeded', liveness: 'ok' });
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e) === 'engineer: answered here'));
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @engineer hello',
      'status(done) engineer',
      'engineer: answered here',
    ]);
    expect(await wakeups(metrics)).toEqual({ local: 1, queue: 0 });
    // The lane gives its slot back once its finish is stored, which may come just after the reply shows.
    await waitFor(async () => (h.engine.slotStats().active === 0 ? true : null));
    expect(h.engine.slotStats()).toMatchObject({ active: 0, waiting: 0 });
    expect(runner.requests).toHaveLength(1);
  });

  it('T3: a turn routed while every slot is busy goes through the queue, and runs once the slot is free', async () => {
    const metrics = new PrometheusMetrics();
    const first = held('first done');
    const runner = new ScriptedRunner({ engineer: first.script }, replies('second done'));
    h = await openEngineHarness(setup, runner, {}, { metrics, concurrency: 1 });
    await h.type('@engineer first');
    await first.started;
    await h.type('/new');
    await h.type('@qa second');
    // The one slot is the engineer's: the qa turn was enqueued, not started here.
    expect(await wakeups(metrics)).toEqual({ local: 1, queue: 1 });
    expect((await h.runs()).map((r) => r.status)).toEqual(['running', 'queued']);

    first.release();
    const runs = await h.settled(2);
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    await waitFor(async () => h.thread(2).some((e) => describeEntry(e) === 'qa: second done'));
    expect(h.thread(1).map(describeEntry)).toContain('engineer: first done');
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['engineer', 'qa']);
  });

  it('T2: a lane started here that fails before its turn starts is retried through the queue, never dropped', async () => {
    const metrics = new PrometheusMetrics();
    let failing: ReturnType<typeof failingOnce> | undefined;
    const runner = new ScriptedRunner({}, repliesInTurn('answered first', 'answered on the retry'));
    h = await openEngineHarness(
      setup,
      runner,
      {},
      {
        metrics,
        wrapStore: (store) => {
          failing = failingOnce(store);
          return failing.store;
        },
      },
    );
    // A new thread's run is claimed with its routing (no claim of its own): the next one claims.
    await h.type('@engineer first');
    await h.settled(1);
    failing?.arm();
    await h.type('@engineer hello');
    const runs = await h.settled(2);
    expect(runs[1]).toMatchObject({ status: 'succeeded', liveness: 'ok' });
    await waitFor(async () =>
      h.thread(1).some((e) => describeEntry(e) === 'engineer: answered on the retry'),
    );
    // Started here, failed at its claim, enqueued to be retried, and answered once.
    expect(await wakeups(metrics)).toEqual({ local: 2, queue: 1 });
    expect(runner.requests).toHaveLength(2);
  });

  it('T2: a run committed queued by a process that died before its local claim is answered by the next worker at its start', async () => {
    const runner = new ScriptedRunner({}, replies('answered'));
    h = await openEngineHarness(setup, runner);
    await h.type('@engineer first');
    await h.settled(1);
    // The routing process commits the run and dies before claiming it: no job anywhere.
    await h.engine.close();
    const runId = await routedAndAbandoned(h, 'qa', '@qa second');

    const next = new ScriptedRunner({}, replies('answered after the restart'));
    await h.restart(next);
    const runs = await h.settled(2);
    expect(runs.find((r) => r.id === runId)).toMatchObject({ status: 'succeeded', liveness: 'ok' });
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e) === 'qa: answered after the restart'));
    expect(next.requests.map((r) => r.agent.name)).toEqual(['qa']);
  });

  it('T2: such a run is found by the periodic recovery of a worker still running (every deadAfterMs / 2), with no restart', async () => {
    const runner = new ScriptedRunner({}, replies('answered'));
    // The sweep every 500 ms; heartbeats often enough that no live turn is taken for dead.
    h = await openEngineHarness(setup, runner, { heartbeatMs: 100, deadAfterMs: 1000 });
    await h.type('@engineer first');
    await h.settled(1);
    // Another process routed it and died before its local claim; this worker lives on.
    const runId = await routedAndAbandoned(h, 'qa', '@qa second');
    const runs = await h.settled(2);
    expect(runs.find((r) => r.id === runId)).toMatchObject({ status: 'succeeded', liveness: 'ok' });
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['engineer', 'qa']);
  });
});

describe('T3, T5: a web process (it runs no turns) always enqueues, on PostgreSQL + BullMQ', () => {
  let h: EngineHarness;
  afterEach(() => h.close());

  it('the front end routes and enqueues; the worker takes the job from the queue', async () => {
    const setup = ENGINE_SETUPS.find((s) => s.redis);
    if (setup === undefined) throw new Error('no PostgreSQL + BullMQ set-up');
    const metrics = new PrometheusMetrics();
    const runner = new ScriptedRunner({}, replies('answered by the worker'));
    h = await openEngineHarness(setup, runner, {}, { metrics });
    h.receiveInFrontEnd();
    await h.type('@engineer hello');
    const [run] = await h.settled(1);
    expect(run).toMatchObject({ status: 'succeeded', liveness: 'ok' });
    expect(await wakeups(metrics)).toEqual({ local: 0, queue: 1 });
  });
});
