import type { RunActivityBoard } from '../../agents/run-activity-board';
import type { AttachmentLimits } from '../../attachments/attachment-limits';
import type { AttachmentShelf } from '../../ports/attachment-fetcher';
import type { EgressProxies } from '../../ports/egress';
import type { RunWorkspace } from '../../ports/run-workspace';
import type { RunnerResolver } from '../../ports/runner';
import type { TurnToolsFactory } from '../../ports/turn-tools-factory';
import type { WorkspaceDirectory } from '../../ports/workspace-directory';
import type { LiveCardBoard } from '../cards/live-card-board';
import type { EngineTimings } from '../engine-timings';
import type { wakeAfterTurn } from '../routing/wake-after-turn';
import type { StopDeps } from '../stop/stop-deps';
import type { ChecksDeps } from '../turn-checks-hooks';
import type { TurnSlots } from '../waits/turn-slots';
import type { TurnWrites } from './turn-writes';

/** What a turn's runner works with: the runner, its tools, its folder and what it is shown. */
export interface TurnRunnerDeps {
  runners: RunnerResolver;
  /** A9: each run's tools, bound to this engine; absent: turns get no tools (`NO_TOOLS`). */
  tools?: TurnToolsFactory;
  /** M9, G3: each run's worktrees and git environment; absent: the agent's own folder. */
  workspaces?: RunWorkspace;
  /** X2: each run's egress proxy, closed with its run. */
  egress?: EgressProxies;
  directory: WorkspaceDirectory;
  /** A13: told each run event and each run's end. */
  activity?: RunActivityBoard;
  /** O5: each running turn's card as the web console shows it; absent: not kept. */
  liveCards?: LiveCardBoard;
  /** P13: keeps attached files the model is not shown in the run's working folder. */
  attachmentShelf?: AttachmentShelf;
  /** P13: the bounds of a message's attachments (`DEFAULT_ATTACHMENT_LIMITS` when absent). */
  attachmentLimits?: AttachmentLimits;
}

/** What waking the agents a clean turn's reply names uses (M14), as routing declares it. */
type WakeAfterTurnDeps = Parameters<typeof wakeAfterTurn>[0];

/**
 * What running a claimed turn uses of the engine: its runner's deps, what a stop uses (a turn
 * ends the way a stopped one does), the wake chain's, and this process's slots (T1, T3), the
 * writes it shares with other turns (T3) and its timings.
 */
export interface TurnDeps extends StopDeps, TurnRunnerDeps, WakeAfterTurnDeps, ChecksDeps {
  slots: TurnSlots;
  turnWrites: TurnWrites;
  timings: EngineTimings;
}
