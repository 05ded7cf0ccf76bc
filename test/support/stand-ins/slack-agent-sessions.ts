import type { StoredSlackMessage } from './slack-web-api-stand-in';

/** Whether the app may have agent sessions (Slack's agent features on); off, `setStatus` answers `refusal`. */
export interface SlackSessionRules {
  enabled?: boolean;
  refusal?: string;
}

/** One thread's agent session as the stand-in keeps it. */
export interface StandInSession {
  channel: string;
  threadTs: string;
  status: string;
  initiator: string | null;
  title: string | null;
  /** Every status it was set to, in order. */
  statuses: string[];
}

type Answer = Record<string, unknown>;

const STATUSES = new Set(['active', 'processing', 'suspended', 'closed']);
const TITLE_LIMIT = 200;
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

interface Host {
  messages: StoredSlackMessage[];
  /** The message at `channel` and `ts` (the stand-in's index). */
  find(channel: unknown, ts: unknown): StoredSlackMessage | undefined;
  nextTs(): string;
  /** Channel and membership checks shared with the other chat methods (null when fine). */
  checkChannel(p: Answer): string | null;
  customizeAllowed(): boolean;
}

/**
 * `agents.sessions.setStatus` as `@slack/web-api` 8.2 types it (`AgentsSessionsSetStatusArguments`:
 * `channel_id` and `status` required, status one of `active`, `processing`, `suspended`,
 * `closed`; `thread_ts`, the thread's root, required for a thread session in a channel or DM;
 * `title` at most 200 characters and `initiator_user_id` used only when the session is created;
 * `username` / `icon_url` / `icon_emoji` need `chat:write.customize`), and the native Stop:
 * shown only while a session is `processing`, it stops the thread's streams and sends
 * `agent_session_stopped` (https://docs.slack.dev/reference/events/agent_session_stopped),
 * leaving the status for the app to change. The error codes for bad arguments are Slack's
 * usual ones (`invalid_arguments`, `thread_not_found`, `user_not_found`): the method's page
 * lists none we could check.
 */
export class SlackAgentSessionsStandIn {
  readonly sessions: StandInSession[] = [];

  constructor(
    private readonly host: Host,
    private readonly rules: SlackSessionRules = {},
  ) {}

  setStatus(p: Answer): Answer {
    if (typeof p.channel_id !== 'string' || p.channel_id === '')
      return { ok: false, error: 'invalid_arguments' };
    const channel = p.channel_id;
    const refused = this.host.checkChannel({ channel });
    if (refused !== null) return { ok: false, error: refused };
    if (this.rules.enabled !== true) return { ok: false, error: this.rules.refusal ?? 'feature_not_enabled' };
    if (typeof p.status !== 'string' || !STATUSES.has(p.status))
      return { ok: false, error: 'invalid_arguments' };
    if (typeof p.thread_ts !== 'string' || p.thread_ts === '')
      return { ok: false, error: 'invalid_arguments' };
    const threadTs = p.thread_ts;
    const root = this.host.find(channel, threadTs);
    if (root === undefined || (root.threadTs !== null && root.threadTs !== root.ts))
      return { ok: false, error: 'thread_not_found' };
    if (p.title !== undefined && (typeof p.title !== 'string' || p.title.length > TITLE_LIMIT))
      return { ok: false, error: 'invalid_arguments' };
    if (
      p.initiator_user_id !== undefined &&
      (typeof p.initiator_user_id !== 'string' || !USER_ID.test(p.initiator_user_id))
    )
      return { ok: false, error: 'user_not_found' };
    const customizes = p.username !== undefined || p.icon_url !== undefined || p.icon_emoji !== undefined;
    if (customizes && !this.host.customizeAllowed())
      return { ok: false, error: 'missing_scope', needed: 'chat:write.customize' };
    let session = this.find(channel, threadTs);
    if (session === undefined) {
      session = {
        channel,
        threadTs,
        status: p.status,
        initiator: typeof p.initiator_user_id === 'string' ? p.initiator_user_id : null,
        title: typeof p.title === 'string' ? p.title : null,
        statuses: [],
      };
      this.sessions.push(session);
    }
    session.status = p.status;
    session.statuses.push(p.status);
    return { ok: true, status: session.status, ...(session.title === null ? {} : { title: session.title }) };
  }

  find(channel: string, threadTs: string): StandInSession | undefined {
    return this.sessions.find((s) => s.channel === channel && s.threadTs === threadTs);
  }

  /**
   * `user` presses the native Stop of the thread's session (shown only while it is
   * `processing`): Slack stops the thread's streams and sends the event, whose fields this
   * returns (the caller delivers them, signed, as an `event_callback`). The status stays.
   */
  pressStop(channel: string, threadTs: string, user: string): Answer {
    const session = this.find(channel, threadTs);
    if (session?.status !== 'processing')
      throw new Error(`no Stop to press: the session of ${threadTs} is ${session?.status ?? 'not there'}`);
    const stopped: string[] = [];
    for (const message of this.host.messages) {
      if (message.channel !== channel || message.threadTs !== threadTs) continue;
      if (message.stream?.state !== 'streaming') continue;
      message.stream.state = 'stopped';
      stopped.push(message.ts);
    }
    return {
      type: 'agent_session_stopped',
      channel,
      thread_ts: threadTs,
      user,
      streaming_message_ts: stopped,
      event_ts: this.host.nextTs(),
    };
  }
}
