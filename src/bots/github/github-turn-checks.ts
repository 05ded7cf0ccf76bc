import type { Platform } from '../../core/model/platform';
import type { ApprovalCard, StatusCard, ThreadId } from '../../core/ports/chat-platform';
import type {
  CheckRunWrite,
  GitHubCheckRuns,
  LinkedPullRequest,
  PullHead,
} from '../../core/ports/github-check-runs';
import type { Logger } from '../../core/ports/logger';
import type { PullRequestRef } from '../../core/ports/pull-request-store';
import type {
  CheckedTurn,
  DecidedOn,
  PushedHead,
  TurnCheckEnd,
  TurnChecks,
} from '../../core/ports/turn-checks';
import { approvalCheck, endedCheck, progressCheck, queuedCheck, supersededCheck } from './check-run-bodies';
import { DEFAULT_RETRY_DELAYS_MS, retryingGitHub } from './github-retry';
import { decodeGitHubThreadId } from './github-thread-id';

export interface GitHubTurnChecksOptions {
  rest: GitHubCheckRuns;
  logger: Logger;
  /** P21: a running turn's check is updated at most once per this many ms; default 1,000. */
  intervalMs?: number;
  /** The waits before each retry of a call GitHub could not take; default 1 s, 5 s, 20 s. */
  retryDelaysMs?: readonly number[];
  now?: () => number;
  /**
   * P21, P22: a chat thread's recorded pull request (Slack, Discord): its turns show on that
   * pull request too. Absent: only turns on GitHub's pull requests show.
   */
  linkedPull?: LinkedPullRequest;
}

/** Where a check run goes: a pull request, and (after a push, P21) the commit the turn pushed. */
type CheckTarget = PullRequestRef & { head?: PullHead };

/** One check run: where it is, and the calls that write it, in order. */
interface CheckState {
  /** The pull request, read once per check run (null: the thread has none). */
  pull: Promise<CheckTarget | null>;
  id: number | null;
  /** The commit the check run is on, once known. */
  headSha: string | null;
  /** P21: moved by a push (the turn's approvals follow it there). */
  moved: boolean;
  /** The turn's status card as last told (a check moved by a push starts from it). */
  lastCard: StatusCard | null;
  /** False once the thread turned out not to be a pull request (an issue has no checks). */
  live: boolean;
  chain: Promise<void>;
  lastWriteAt: number;
  pending: CheckRunWrite | null;
  timer: NodeJS.Timeout | null;
}

/** Issues remembered as not pull requests, per process (then it starts over). */
const ISSUES_LIMIT = 10_000;

/**
 * P21: turns on GitHub's pull requests (and, P22, turns of a chat thread with a recorded open
 * pull request) as check runs on the head commit, and the approvals they ask (G4) as check
 * runs with Approve / Deny. Every call returns at once: writes go out in
 * order per check run, a running turn's at most once a second (the last state always written),
 * each retried when GitHub could not take it (5xx, 429, the network) and logged when given up.
 * A check run another process created (the web process queues, a worker runs) is found by its
 * external id on the head commit before one is created, whichever process writes first.
 */
export class GitHubTurnChecks implements TurnChecks {
  private readonly checks = new Map<string, CheckState>();
  private readonly issues = new Set<string>();
  /** P21: GitHub threads (an issue's too) with a turn whose check a push moved to a pull request. */
  private readonly pushedThreads = new Set<string>();
  private readonly logger: Logger;
  private readonly now: () => number;

  constructor(private readonly options: GitHubTurnChecksOptions) {
    this.logger = options.logger.child({ component: 'github-checks' });
    this.now = options.now ?? Date.now;
  }

  covers(platform: Platform, thread: ThreadId): boolean {
    // P22: a chat thread may have a pull request recorded; whether it has is read once per check run.
    if (platform !== 'github') return this.options.linkedPull !== undefined;
    const parts = decodeGitHubThreadId(thread);
    if (parts === null) return false;
    return !this.issues.has(`${parts.repo}#${parts.number}`) || this.pushedThreads.has(thread);
  }

  queued(turn: CheckedTurn): void {
    // Told after routing committed: a turn that started meanwhile is past queued already.
    if (this.checks.has(`run ${turn.runId}`)) return;
    this.write(turn, `run ${turn.runId}`, queuedCheck(turn.agent, turn.runId), 'now');
  }

  progress(turn: CheckedTurn, card: StatusCard): void {
    this.write(turn, `run ${turn.runId}`, progressCheck(turn.runId, card), 'coalesced');
    const state = this.checks.get(`run ${turn.runId}`);
    if (state !== undefined) state.lastCard = card;
  }

  /**
   * P21: the turn's check moves to the commit it pushed to a pull request's branch (in progress
   * there at once, from the card as last told); a check run it had on another commit is closed
   * `neutral`, after that one's writes, so the old commit does not show a turn running forever.
   */
  pushed(turn: CheckedTurn, head: PushedHead): void {
    const key = `run ${turn.runId}`;
    const before = this.checks.get(key);
    if (before?.live === true && before.headSha === head.headSha) return;
    if (turn.platform === 'github') {
      // An issue's turn that pushed to a pull request's branch shows there, to its end.
      if (this.pushedThreads.size >= ISSUES_LIMIT) this.pushedThreads.clear();
      this.pushedThreads.add(turn.thread);
    }
    const target = { repo: head.repo.toLowerCase(), number: head.number, head };
    const state = { ...this.newState(Promise.resolve(target)), moved: true };
    this.checks.set(key, state);
    if (before !== undefined) {
      if (before.timer !== null) clearTimeout(before.timer);
      before.timer = null;
      before.pending = null;
      state.lastCard = before.lastCard;
      state.chain = before.chain.then(() =>
        before.id === null || !before.live || before.headSha === null
          ? undefined
          : this.send(key, before, supersededCheck(turn.agent, turn.runId, head.headSha)),
      );
    }
    if (state.lastCard !== null) this.write(turn, key, progressCheck(turn.runId, state.lastCard), 'now');
  }

  ended(turn: CheckedTurn, end: TurnCheckEnd): void {
    this.write(turn, `run ${turn.runId}`, endedCheck(turn.agent, turn.runId, end), 'last');
  }

  approval(turn: CheckedTurn, card: ApprovalCard, decidedOn: DecidedOn | null): void {
    const key = `approval ${card.approvalId}`;
    this.write(
      turn,
      key,
      (head) => approvalCheck(card, decidedOn, head.url),
      card.status === 'pending' ? 'now' : 'last',
    );
  }

  /** Resolves once every write asked so far went out or was given up (tests, shutdown). */
  async idle(): Promise<void> {
    for (const state of this.checks.values()) {
      if (state.timer !== null) {
        clearTimeout(state.timer);
        state.timer = null;
        this.flush(state);
      }
    }
    await Promise.all([...this.checks.values()].map((state) => state.chain));
  }

  private write(
    turn: CheckedTurn,
    key: string,
    body: CheckRunWrite | ((head: PullHead) => CheckRunWrite),
    when: 'now' | 'coalesced' | 'last',
  ): void {
    const state = this.stateOf(key, turn);
    if (state === null || !state.live) return;
    if (when === 'coalesced' && typeof body !== 'function') {
      // P21: at most one update per interval; the newest state replaces one not sent yet.
      state.pending = body;
      if (state.timer !== null) return;
      const wait = Math.max(0, state.lastWriteAt + (this.options.intervalMs ?? 1_000) - this.now());
      state.timer = setTimeout(() => {
        state.timer = null;
        this.flush(state);
      }, wait);
      return;
    }
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = null;
    state.pending = null;
    state.chain = state.chain.then(() => this.send(key, state, body));
    if (when === 'last') void state.chain.then(() => this.forget(key, state));
  }

  private flush(state: CheckState): void {
    const body = state.pending;
    state.pending = null;
    if (body === null) return;
    state.chain = state.chain.then(() => this.send(`progress ${body.externalId}`, state, body));
  }

  private stateOf(key: string, turn: CheckedTurn): CheckState | null {
    let state = this.checks.get(key);
    if (state === undefined) {
      const pull = this.pullOf(turn);
      if (pull === null) return null;
      state = this.newState(pull);
      this.checks.set(key, state);
    }
    return state;
  }

  private newState(pull: Promise<CheckTarget | null>): CheckState {
    return {
      pull,
      id: null,
      headSha: null,
      moved: false,
      lastCard: null,
      live: true,
      chain: Promise.resolve(),
      lastWriteAt: 0,
      pending: null,
      timer: null,
    };
  }

  /**
   * The pull request a turn's check runs are on: a GitHub thread's own, or (P22) the one
   * recorded on a chat thread's conversation, read once per run (its approvals reuse the read).
   */
  private pullOf(turn: CheckedTurn): Promise<CheckTarget | null> | null {
    const run = this.checks.get(`run ${turn.runId}`);
    if (run?.moved === true) return run.pull;
    if (turn.platform === 'github') {
      const parts = decodeGitHubThreadId(turn.thread);
      if (parts === null || this.issues.has(`${parts.repo}#${parts.number}`)) return null;
      return Promise.resolve({ repo: parts.repo, number: parts.number });
    }
    const { linkedPull } = this.options;
    if (linkedPull === undefined) return null;
    return (
      run?.pull ??
      linkedPull(turn.platform, turn.thread).catch((error: unknown) => {
        this.logger.warn({ err: String(error) }, 'the thread’s pull request could not be read');
        return null;
      })
    );
  }

  private forget(key: string, state: CheckState): void {
    if (this.checks.get(key) === state && state.pending === null && state.timer === null)
      this.checks.delete(key);
  }

  /** One write, created on the pull request's head when this process has no id for it yet. */
  private async send(
    key: string,
    state: CheckState,
    body: CheckRunWrite | ((head: PullHead) => CheckRunWrite),
  ): Promise<void> {
    const pull = await state.pull;
    if (pull === null) state.live = false;
    if (!state.live || pull === null) return;
    const { repo, number } = pull;
    state.lastWriteAt = this.now();
    try {
      if (state.id !== null && typeof body !== 'function') {
        const id = state.id;
        await this.retrying(() => this.options.rest.updateCheckRun(repo, id, body));
        return;
      }
      // P21: a check moved by a push is on the pushed commit (GitHub may not show it as the head yet).
      const head = pull.head ?? (await this.retrying(() => this.options.rest.pullHead(repo, number)));
      if (head === null) {
        state.live = false;
        this.rememberIssue(`${repo}#${number}`);
        return;
      }
      state.headSha = head.headSha;
      const write = typeof body === 'function' ? body(head) : body;
      // Another process may have written it first (a worker's update before the web's queued).
      state.id ??= await this.retrying(() =>
        this.options.rest.findCheckRun(repo, head.headSha, write.name, write.externalId),
      );
      const id = state.id;
      // Found when queued: a worker already runs the turn, past queued.
      if (id !== null && write.status === 'queued') return;
      if (id !== null) await this.retrying(() => this.options.rest.updateCheckRun(repo, id, write));
      else state.id = await this.retrying(() => this.options.rest.createCheckRun(repo, head.headSha, write));
    } catch (error) {
      this.logger.warn(
        { err: String(error), status: (error as { status?: unknown }).status, repo, check: key },
        'a GitHub check run could not be written',
      );
    }
  }

  private rememberIssue(key: string): void {
    if (this.issues.size >= ISSUES_LIMIT) this.issues.clear();
    this.issues.add(key);
  }

  /** Retried while GitHub could not take it (5xx, 429, no answer); a refusal (4xx) is final. */
  private retrying<T>(call: () => Promise<T>): Promise<T> {
    return retryingGitHub(call, this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS);
  }
}
