import type { RunActivityBoard } from '../agents/run-activity-board';
import type { AttachmentLimits } from '../attachments/attachment-limits';
import type { InboxRouterOptions } from '../ingest/inbox-router';
import type { Platform } from '../model/platform';
import type { OutageWatch } from '../outage/outage-watch';
import type { AttachmentShelf } from '../ports/attachment-fetcher';
import type { ChatPlatform } from '../ports/chat-platform';
import type { Clock } from '../ports/clock';
import type { EgressProxies } from '../ports/egress';
import type { JobQueue } from '../ports/job-queue';
import type { Logger } from '../ports/logger';
import type { LoopLoad } from '../ports/loop-load';
import type { Metrics } from '../ports/metrics';
import type { PairRateLimiter } from '../ports/pair-rate-limiter';
import type { RelayClient } from '../ports/relay-client';
import type { RunWorkspace } from '../ports/run-workspace';
import type { RunnerResolver } from '../ports/runner';
import type { Store } from '../ports/store';
import type { TurnChecks } from '../ports/turn-checks';
import type { TurnToolsFactory } from '../ports/turn-tools-factory';
import type { WaitSignals } from '../ports/wait-signals';
import type { WorkspaceDirectory } from '../ports/workspace-directory';
import type { LiveCardBoard } from './cards/live-card-board';
import type { EngineTimings } from './engine-timings';
import type { LocalLanes } from './routing/wake-run';
import type { RunJob } from './run-job';
import type { McpToolsDeps, TurnToolKit } from './tool-kit/tool-kit-deps';
import type { TurnWrites } from './turn/turn-writes';
import type { TurnSlots } from './waits/turn-slots';

/** Everything the turn engine needs, handed in (no singletons). */
export interface EngineDeps {
  store: Store;
  platforms: ReadonlyMap<Platform, ChatPlatform>;
  queue: JobQueue<RunJob>;
  runners: RunnerResolver;
  /**
   * A9: builds each run's tools (surface from the space mode, guardrails per call), bound to
   * this engine. Absent: turns get no tools (`NO_TOOLS`).
   */
  tools?: TurnToolsFactory;
  /**
   * M9, G3: each run's worktrees and git environment in a space with repositories. Absent:
   * every run works in the agent's own folder.
   */
  workspaces?: RunWorkspace;
  /**
   * X2: each run's filtering egress proxy, given when commands run in the sandbox (which has
   * no network of its own). Present: the proxy decides `network` per host it is asked to reach
   * and the tool kit stops classifying command text for it. Absent (`SUMMON_SANDBOX=off`):
   * the tool kit classifies each command's text.
   */
  egress?: EgressProxies;
  /** E1, E2: the MCP servers' tools of built-in turns (Summon's MCP client); absent: none. */
  mcp?: McpToolsDeps;
  /** A13: told each run event and each run's end, so presence can be shown (App Home). */
  activity?: RunActivityBoard;
  /** O5: told each running turn's card changes, for the web console's live runs; absent: not kept. */
  liveCards?: LiveCardBoard;
  rateLimiter: PairRateLimiter;
  /** P24: the people told privately that no group admits them (the engine makes it). */
  accessTold?: Set<string>;
  directory: WorkspaceDirectory;
  clock: Clock;
  /** T1: what wakes a waiting turn (in-process, or Redis pub/sub across processes). */
  waits: WaitSignals;
  /** T1, T3: this process's slots for active turns; a waiting turn gives its slot back. */
  slots: TurnSlots;
  /** T3: the card refs and replies of turns that store them at the same time, stored together. */
  turnWrites: TurnWrites;
  /**
   * T3: this process's lanes, where a woken run starts at once when a slot is free
   * (`wakeRun`); handed in by the engine, which builds them.
   */
  localLanes?: LocalLanes;
  /**
   * T2, A12: what this process saw of database and Redis outages (the engine's store and queue
   * retry through them and report here); recovery judges no run dead for silence during one.
   */
  outage?: OutageWatch;
  logger: Logger;
  /** What the engine counts for `/metrics` (events, turns, liveness); absent: nothing. */
  metrics?: Metrics;
  /** N5: this relay's name; null shows as "this relay". */
  relayName: string | null;
  /** R2: signed requests to paired relays (`agent@relay`); absent: this relay is paired with none. */
  relays?: RelayClient;
  timings: EngineTimings;
  /** T4: how the inbox is routed (lanes, poll, retries); defaults in `DEFAULT_INBOX_OPTIONS`. */
  inbox?: Partial<InboxRouterOptions>;
  /** T4: how busy this process's event loop is, so that routing lets acks go first; absent: never busy. */
  loopLoad?: LoopLoad;
  /** P13: keeps attached files the model is not shown in the run's working folder; absent, they are only named. */
  attachmentShelf?: AttachmentShelf;
  /** P13: the bounds of a message's attachments (`DEFAULT_ATTACHMENT_LIMITS` when absent). */
  attachmentLimits?: AttachmentLimits;
  /** P21: where turns and approvals also show (GitHub's check runs on pull requests); absent: nowhere. */
  checks?: TurnChecks;
}

export type { TurnToolKit };

/**
 * What builds a `TurnEngine`: its deps, with the wait signals in-process unless given, and
 * the tool kit the engine binds to itself.
 */
export type EngineSetup = Omit<
  EngineDeps,
  'waits' | 'slots' | 'turnWrites' | 'outage' | 'tools' | 'localLanes'
> & {
  waits?: WaitSignals;
  tools?: TurnToolKit;
};
