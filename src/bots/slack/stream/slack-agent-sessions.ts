import { CallWithdrawn } from '../../../core/outbox/delivery-error';
import type { ThreadId } from '../../../core/ports/chat-platform';
import type { Logger } from '../../../core/ports/logger';
import type { DeliverOptions } from '../../../core/ports/outbox';
import type { TurnSession, TurnSessionOpening } from '../../../core/ports/turn-session';
import { slackErrorOf } from './slack-stream-chunks';

/** The lifecycle statuses `agents.sessions.setStatus` takes (`active` is left to Slack). */
export type SlackSessionStatus = 'processing' | 'suspended' | 'closed';

/** Sends one `agents.sessions.setStatus` for a thread, in the thread's order (P7). */
export type SendSessionStatus = (
  thread: ThreadId,
  args: Record<string, unknown>,
  options?: DeliverOptions,
) => Promise<void>;

/** Refusals that mean this app cannot have agent sessions at all: not asked again. */
const UNSUPPORTED = new Set([
  'unknown_method',
  'missing_scope',
  'not_allowed_token_type',
  'feature_not_enabled',
  'not_allowed',
]);

interface ThreadSession {
  /** The turns of this thread this process runs, each working or waiting. */
  turns: Map<object, 'processing' | 'suspended'>;
  shown: SlackSessionStatus | null;
  /** Set once Slack refused a call for this thread: its session is left as it is. */
  refused: boolean;
  /** P9 (decision): its first status was withdrawn: Slack was never told, so nothing is closed. */
  withdrawn?: boolean;
}

/**
 * P15 on Slack: a thread's agent session follows its turns (`agents.sessions.setStatus`):
 * `processing` while one works, `suspended` while all of them wait (an approval, a question,
 * another agent), `closed` once the last has ended. Only changes are sent; the first call of a
 * session names the person who started the turn (`initiator_user_id`). A refusal is logged and
 * costs the turn nothing; one meaning the app has no agent sessions stops the calls for good.
 * T2: a call that failed without Slack's answer (no Slack error code: the database away past
 * the outbox's patience) is no refusal: it is logged at warn and the thread's next change is sent.
 */
export class SlackAgentSessions {
  private readonly threads = new Map<ThreadId, ThreadSession>();
  private unsupported = false;

  constructor(
    private readonly send: SendSessionStatus,
    private readonly logger: Logger,
  ) {}

  open(thread: ThreadId, opening: TurnSessionOpening): TurnSession {
    const turn = {};
    return {
      working: () => void this.set(thread, turn, 'processing', opening),
      waiting: () => void this.set(thread, turn, 'suspended', opening),
      end: () => this.set(thread, turn, null, opening),
    };
  }

  /**
   * P15, T2: a thread whose turn no process holds (its worker died): its session shows it
   * parked (`suspended`) or over (`closed`), unless a turn of this process runs in it.
   */
  settle(thread: ThreadId, status: 'suspended' | 'closed'): Promise<void> {
    if (this.threads.has(thread) || this.unsupported) return Promise.resolve();
    return this.call(thread, { status }, { turns: new Map(), shown: null, refused: false });
  }

  /** A thread whose session Slack says was stopped while nothing here runs in it: closed. */
  close(thread: ThreadId): Promise<void> {
    if (this.threads.has(thread)) return Promise.resolve();
    return this.call(thread, { status: 'closed' }, { turns: new Map(), shown: null, refused: false });
  }

  private set(
    thread: ThreadId,
    turn: object,
    state: 'processing' | 'suspended' | null,
    opening: TurnSessionOpening,
  ): Promise<void> {
    let session = this.threads.get(thread);
    if (session === undefined) {
      if (state === null) return Promise.resolve();
      session = { turns: new Map(), shown: null, refused: false };
      this.threads.set(thread, session);
    }
    if (state === null) session.turns.delete(turn);
    else session.turns.set(turn, state);
    const states = [...session.turns.values()];
    const status: SlackSessionStatus =
      states.length === 0 ? 'closed' : states.includes('processing') ? 'processing' : 'suspended';
    if (status === 'closed') this.threads.delete(thread);
    if (status === session.shown || this.unsupported || session.refused) return Promise.resolve();
    const first = session.shown === null;
    // P9 (decision): a session whose first status was withdrawn was never shown: nothing to close.
    if (first && status === 'closed' && session.withdrawn === true) return Promise.resolve();
    session.shown = status;
    return this.call(
      thread,
      {
        status,
        ...(first && opening.initiatorUserId !== null ? { initiator_user_id: opening.initiatorUserId } : {}),
      },
      session,
      // P9 (decision): the first status is the turn's sign of life, withdrawn if still held at its end.
      first ? { withdrawn: opening.withdrawn } : {},
    );
  }

  private call(
    thread: ThreadId,
    args: Record<string, unknown>,
    session: ThreadSession,
    options: DeliverOptions = {},
  ): Promise<void> {
    return this.send(thread, args, options).catch((error: unknown) => {
      if (error instanceof CallWithdrawn) {
        if (session.shown === args.status) {
          session.shown = null;
          session.withdrawn = true;
        }
        return;
      }
      const code = slackErrorOf(error);
      if (code === undefined) {
        // Not Slack refusing (the call could not be made, e.g. the database away past the
        // outbox's patience): the thread's next change is sent as usual.
        if (session.shown === args.status) session.shown = null;
        this.logger.warn({ thread, err: error }, 'an agent session status could not be sent');
        return;
      }
      session.refused = true;
      if (UNSUPPORTED.has(code)) {
        if (!this.unsupported)
          this.logger.warn(
            { slackError: code },
            'Slack refused agents.sessions.setStatus: agent session statuses are not shown',
          );
        this.unsupported = true;
        return;
      }
      this.logger.info({ thread, slackError: code, err: error }, 'an agent session status was refused');
    });
  }
}
