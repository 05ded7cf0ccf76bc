import { InboxRouter } from '../ingest/inbox-router';
import { tellInThread } from '../ingest/tell-in-thread';
import type { ApprovalOutcome } from '../model/approvals/approval';
import type { ApprovalRecord } from '../model/approvals/approval-record';
import type { CardAction, CardActionResult } from '../model/card-action';
import type { InboxEntry } from '../model/inbox';
import type { Platform } from '../model/platform';
import { OutageWatch } from '../outage/outage-watch';
import { RetryingQueue } from '../outage/retrying-queue';
import { RetryingStore } from '../outage/retrying-store';
import type { ChatEngine, IngestOutcome, PlatformActor, ReceiveOutcome } from '../ports/chat-engine';
import type { InboundMessage } from '../ports/chat-platform';
import type { InboxDecoder } from '../ports/inbox-decoder';
import type { WaitSignals } from '../ports/wait-signals';
import { InProcessWaitSignals } from '../waits/in-process-wait-signals';
import { actOnCard } from './actions/card-actions';
import { expireDueApprovals } from './approvals/approval-endings';
import { approvalState, openApproval } from './approvals/approvals';
import type { EngineDeps, EngineSetup } from './engine-deps';
import { LaneWorker } from './lanes/lane-worker';
import { recoverRuns } from './recovery/recover-runs';
import { afterRouting, type RoutedMessage, receiveMessage, routeMessage } from './routing/receive-message';
import { recordAndReadAhead } from './routing/record-message';
import { wakeRun } from './routing/wake-run';
import type { RunJob } from './run-job';
import { TurnWrites } from './turn/turn-writes';
import { type ApprovalWait, awaitApproval } from './waits/await-approval';
import { DEFAULT_CONCURRENCY, TurnSlots } from './waits/turn-slots';

/**
 * The turn engine: the core's side of every chat platform (ChatEngine) and the worker that
 * runs turns from the queue. One turn at a time per (agent, conversation): a worker that
 * claims a lane runs its queued turns in order, oldest first.
 */
export class TurnEngine implements ChatEngine {
  private sweep: NodeJS.Timeout | null = null;
  private recovering: Promise<void> | null = null;
  private recoverAgain = false;
  private readonly unwatch: (() => void)[] = [];
  private readonly deps: EngineDeps;
  /** The queue's handler: lanes in progress, including turns that wait detached from a job. */
  private readonly lanes: LaneWorker;
  /** T4: the front ends' inbound events, stored before the ack and routed from here. */
  private readonly inbox: InboxRouter<RoutedMessage>;

  /** T1: the signals this engine's waits listen on (a run's end, a decision), for waits beside it (E6). */
  get signals(): WaitSignals {
    return this.deps.waits;
  }

  constructor(setup: EngineSetup) {
    const { tools, ...given } = setup;
    // T2: a database or Redis restart of seconds delays the engine's work instead of failing it.
    const outage = new OutageWatch(setup.clock, setup.logger.child({ component: 'outage' }));
    const store = RetryingStore.over(setup.store, outage);
    const base = {
      ...given,
      store,
      queue: new RetryingQueue(setup.queue, outage),
      waits: setup.waits ?? new InProcessWaitSignals(),
      slots: new TurnSlots(DEFAULT_CONCURRENCY),
      turnWrites: new TurnWrites(store),
      outage,
      accessTold: new Set<string>(),
    };
    // A9: the tool kit is bound to this engine once its ports are whole.
    const withTools = tools === undefined ? base : { ...base, tools: tools(base) };
    this.lanes = new LaneWorker(withTools);
    // T3: routing's runs start here when a slot is free (`wakeRun`); the same lanes as the queue's.
    const deps: EngineDeps = { ...withTools, localLanes: this.lanes };
    this.deps = deps;
    this.inbox = new InboxRouter(
      {
        store: deps.store,
        clock: deps.clock,
        logger: deps.logger,
        metrics: deps.metrics,
        load: deps.loopLoad,
        route: (tx, message) => routeMessage(tx, deps, message),
        readAhead: recordAndReadAhead,
        after: (message, routed) => afterRouting(deps, message, routed),
        rolledBack: (tx) => this.lanes.releaseHolds(tx),
        tell: tellInThread(deps.platforms, deps.logger),
      },
      deps.inbox,
    );
  }

  /**
   * Recovers what a previous process left, then consumes the queue. T3: at most `concurrency`
   * turns are active at once; T1: a turn that waits holds neither a slot nor its queue job.
   * A `web` process routes the inbox and runs no turns (`runTurns: false`); a `worker` runs
   * turns and recovery and leaves the inbox to the web process (`routeInbox: false`).
   */
  async start(options: { concurrency: number; runTurns?: boolean; routeInbox?: boolean }): Promise<void> {
    const { concurrency, runTurns = true, routeInbox = true } = options;
    this.deps.slots.setCapacity(concurrency);
    if (runTurns) {
      await recoverRuns(this.deps);
      this.deps.queue.process((job) => this.lanes.handle(job), { concurrency });
      this.lanes.accept();
    }
    if (routeInbox) this.inbox.start();
    if (!runTurns) return;
    this.sweep = setInterval(() => this.recoverNow(), this.deps.timings.deadAfterMs / 2);
    this.sweep.unref();
    // T2: when the database or Redis is back after an outage, queued runs whose wake-ups fell
    // inside it (a Redis that kept nothing lost its jobs) are enqueued at once, not at the sweep.
    this.unwatch.push(
      this.deps.outage?.onRestored(() => this.recoverNow()) ?? (() => {}),
      this.deps.queue.onReconnect?.(() => {
        this.deps.outage?.reached('redis');
        this.recoverNow();
      }) ?? (() => {}),
    );
  }

  /** One recovery pass now; one asked for while another runs follows it (never two at once). */
  private recoverNow(): void {
    if (this.recovering !== null) {
      this.recoverAgain = true;
      return;
    }
    this.recovering = recoverRuns(this.deps)
      .then(() => undefined)
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'run recovery failed'))
      .finally(() => {
        this.recovering = null;
        if (this.recoverAgain && this.sweep !== null) {
          this.recoverAgain = false;
          this.recoverNow();
        }
      });
  }

  /** SIGTERM: stop taking turns; turns in progress finish or go back to the queue. */
  async close(): Promise<void> {
    if (this.sweep !== null) clearInterval(this.sweep);
    this.sweep = null;
    for (const unwatch of this.unwatch.splice(0)) unwatch();
    await this.inbox.close();
    await this.lanes.close(this.deps.queue);
  }

  /**
   * A12, T2: resumes (or parks) checkpointed runs of dead workers, marks the others `dead`, and
   * re-enqueues lost wake-ups (also run periodically).
   */
  recover(): ReturnType<typeof recoverRuns> {
    return recoverRuns(this.deps);
  }

  /** T6: wakes a stored queued run (a routine's firing): a free slot here, else the queue. */
  wake(job: RunJob): Promise<void> {
    return wakeRun(this.deps, job);
  }

  receive(message: InboundMessage): Promise<ReceiveOutcome> {
    this.deps.metrics?.eventReceived(message.platform);
    return receiveMessage(this.deps, message);
  }

  /** T4: one durable write; routing follows from the inbox. */
  ingest(entry: InboxEntry): Promise<IngestOutcome> {
    return this.inbox.ingest(entry);
  }

  routeInboxWith(platform: Platform, decoder: InboxDecoder): void {
    this.inbox.use(platform, decoder);
  }

  /** T4: resolves once no inbox row is being routed (tests, benchmarks). */
  inboxSettled(): Promise<void> {
    return this.inbox.settled();
  }

  /** N7, G4, N13, P15: a person's action on a card or a thread (`actions/card-actions.ts`). */
  act<A extends CardAction>(action: A, actor: PlatformActor): Promise<CardActionResult<A>> {
    return actOnCard(this.deps, action, actor);
  }

  /**
   * G4: an `ask` from a run (a tool call, a push at the git gateway) becomes an approval card
   * in the run's conversation; `approvalState` tells the waiting action what to do.
   */
  requestApproval(request: Parameters<typeof openApproval>[1]): Promise<ApprovalRecord> {
    return openApproval(this.deps, request);
  }

  approvalState(approvalId: string): Promise<ApprovalOutcome> {
    return approvalState(this.deps, approvalId);
  }

  /** G4, T1: waits for the decision without a slot or a poll (the gateway's held pushes). */
  awaitApproval(approvalId: string, signal: AbortSignal): Promise<ApprovalWait> {
    return awaitApproval(this.deps, approvalId, signal);
  }

  /** T1, T3: this process's turn slots: the bound, active turns, turns waiting for a slot, suspended turns. */
  slotStats(): ReturnType<TurnSlots['stats']> {
    return this.deps.slots.stats();
  }

  /** G4: expires unanswered approvals (also run periodically). */
  expireApprovals(): Promise<string[]> {
    return expireDueApprovals(this.deps);
  }
}
