import type { StoredSlackMessage } from './slack-web-api-stand-in';

/** How the stand-in's Slack streams behave. */
export interface SlackStreamRules {
  /**
   * Whether this app may stream (Slack's agent features on). When not, `chat.startStream`
   * answers `refusal`: Summon treats any refusal at the start alike (the reply is posted).
   */
  enabled?: boolean;
  refusal?: string;
  /** Slack closes a stream about five minutes after it started; tests set it short. */
  maxAgeMs?: number;
}

/** A task card of a streamed message: `title` and `status` replace, `details` appends. */
export interface StreamedTask {
  id: string;
  title: string;
  status: string;
  details: string;
}

/** What a streamed message holds besides its text. */
export interface StreamState {
  startedAt: number;
  state: 'streaming' | 'stopped';
  recipient: string | null;
  tasks: StreamedTask[];
  /** Every chunk in the order it arrived (start, appends, stop). */
  chunks: Record<string, unknown>[];
}

type Answer = Record<string, unknown>;

const CALL_TEXT_LIMIT = 12_000;
const TITLE_LIMIT = 256;
const TASK_STATUSES = new Set(['pending', 'in_progress', 'complete', 'error']);
const DISPLAY_MODES = new Set(['timeline', 'plan']);

interface Host {
  messages: StoredSlackMessage[];
  /** The message at `channel` and `ts` (the stand-in's index). */
  find(channel: unknown, ts: unknown): StoredSlackMessage | undefined;
  botId: string;
  botUserId: string;
  /** The team a channel belongs to (a channel stream's `recipient_team_id` must name it). */
  teamOf(channel: string): string;
  nextTs(): string;
  /** Channel and membership checks shared with the other chat methods (null when fine). */
  checkChannel(p: Answer): string | null;
  customizeAllowed(): boolean;
}

/**
 * `chat.startStream` / `chat.appendStream` / `chat.stopStream` as Slack answers them
 * (https://docs.slack.dev/reference/methods/chat.startStream and its siblings): a channel
 * stream needs `recipient_user_id` and `recipient_team_id`; `markdown_text` and each text
 * chunk are at most 12,000 characters; chunks are `markdown_text`, `task_update`,
 * `plan_update` or `blocks`, each checked; only the app that started a stream may append to
 * or stop it (`message_not_owned_by_app`); a stream past its age limit, or stopped, takes
 * nothing more (`message_not_in_streaming_state`).
 */
export class SlackStreamsStandIn {
  constructor(
    private readonly host: Host,
    private readonly rules: SlackStreamRules = {},
  ) {}

  start(p: Answer): Answer {
    const refused = this.host.checkChannel(p);
    if (refused !== null) return { ok: false, error: refused };
    if (this.rules.enabled !== true) return { ok: false, error: this.rules.refusal ?? 'feature_not_enabled' };
    const channel = p.channel as string;
    const threadTs = typeof p.thread_ts === 'string' ? p.thread_ts : null;
    if (threadTs !== null && this.host.find(channel, threadTs) === undefined)
      return { ok: false, error: 'thread_not_found' };
    if (!channel.startsWith('D')) {
      if (typeof p.recipient_user_id !== 'string' || p.recipient_user_id === '')
        return { ok: false, error: 'missing_recipient_user_id' };
      if (typeof p.recipient_team_id !== 'string' || p.recipient_team_id === '')
        return { ok: false, error: 'missing_recipient_team_id' };
      if (p.recipient_team_id !== this.host.teamOf(channel)) return { ok: false, error: 'team_not_found' };
    }
    if (p.task_display_mode !== undefined && !DISPLAY_MODES.has(String(p.task_display_mode)))
      return { ok: false, error: 'invalid_arguments' };
    if ((p.username !== undefined || p.icon_url !== undefined) && !this.host.customizeAllowed())
      return { ok: false, error: 'missing_scope', needed: 'chat:write.customize' };
    const content = this.content(p, false);
    if ('error' in content) return { ok: false, error: content.error };
    const message: StoredSlackMessage = {
      channel,
      ts: this.host.nextTs(),
      threadTs,
      text: '',
      blocks: null,
      username: typeof p.username === 'string' ? p.username : null,
      iconUrl: typeof p.icon_url === 'string' ? p.icon_url : null,
      botId: this.host.botId,
      user: this.host.botUserId,
      edits: 0,
      stream: {
        startedAt: Date.now(),
        state: 'streaming',
        recipient: typeof p.recipient_user_id === 'string' ? p.recipient_user_id : null,
        tasks: [],
        chunks: [],
      },
    };
    this.apply(message, content.chunks);
    this.host.messages.push(message);
    return { ok: true, channel, ts: message.ts };
  }

  append(p: Answer): Answer {
    const found = this.streaming(p);
    if ('error' in found) return { ok: false, error: found.error };
    const content = this.content(p, true);
    if ('error' in content) return { ok: false, error: content.error };
    this.apply(found.message, content.chunks);
    return { ok: true, channel: found.message.channel, ts: found.message.ts };
  }

  stop(p: Answer): Answer {
    const found = this.streaming(p);
    if ('error' in found) return { ok: false, error: found.error };
    const content = this.content(p, false);
    if ('error' in content) return { ok: false, error: content.error };
    const { message } = found;
    this.apply(message, content.chunks);
    if (message.stream !== undefined) message.stream.state = 'stopped';
    return {
      ok: true,
      channel: message.channel,
      ts: message.ts,
      message: { type: 'message', text: message.text, bot_id: this.host.botId, ts: message.ts },
    };
  }

  /** The stream named by `channel` and `ts`, still taking chunks, and this app's. */
  private streaming(p: Answer): { error: string } | { message: StoredSlackMessage } {
    const refused = this.host.checkChannel(p);
    if (refused !== null) return { error: refused };
    if (typeof p.ts !== 'string' || p.ts === '') return { error: 'invalid_arguments' };
    const message = this.host.find(p.channel, p.ts);
    if (message === undefined) return { error: 'message_not_found' };
    if (message.botId !== this.host.botId) return { error: 'message_not_owned_by_app' };
    const stream = message.stream;
    if (stream === undefined) return { error: 'message_not_in_streaming_state' };
    if (stream.state === 'streaming' && Date.now() - stream.startedAt > this.maxAgeMs())
      stream.state = 'stopped';
    if (stream.state !== 'streaming') return { error: 'message_not_in_streaming_state' };
    return { message };
  }

  private maxAgeMs(): number {
    return this.rules.maxAgeMs ?? 300_000;
  }

  /** `markdown_text` and `chunks`, checked; `required`: one of them must be there. */
  private content(p: Answer, required: boolean): { error: string } | { chunks: Record<string, unknown>[] } {
    const chunks: Record<string, unknown>[] = [];
    if (p.markdown_text !== undefined) {
      if (typeof p.markdown_text !== 'string') return { error: 'invalid_arguments' };
      if (p.markdown_text.length > CALL_TEXT_LIMIT) return { error: 'msg_too_long' };
      chunks.push({ type: 'markdown_text', text: p.markdown_text });
    }
    if (p.chunks !== undefined) {
      const parsed = typeof p.chunks === 'string' ? parseJson(p.chunks) : p.chunks;
      if (!Array.isArray(parsed)) return { error: 'invalid_chunks' };
      for (const chunk of parsed as unknown[]) {
        const problem = chunkProblem(chunk);
        if (problem !== null) return { error: problem };
        chunks.push(chunk as Record<string, unknown>);
      }
    }
    if (required && chunks.length === 0) return { error: 'no_text' };
    return { chunks };
  }

  private apply(message: StoredSlackMessage, chunks: Record<string, unknown>[]): void {
    const stream = message.stream;
    if (stream === undefined) return;
    for (const chunk of chunks) {
      stream.chunks.push(chunk);
      if (chunk.type === 'markdown_text') message.text += String(chunk.text);
      if (chunk.type === 'task_update') {
        const id = String(chunk.id);
        const task = stream.tasks.find((t) => t.id === id);
        const details = typeof chunk.details === 'string' ? chunk.details : '';
        if (task === undefined)
          stream.tasks.push({ id, title: String(chunk.title), status: String(chunk.status), details });
        else {
          task.title = String(chunk.title);
          task.status = String(chunk.status);
          task.details += details;
        }
      }
    }
  }
}

/** Why Slack would refuse one chunk (`invalid_chunks`, `msg_too_long`), or null. */
function chunkProblem(chunk: unknown): string | null {
  if (typeof chunk !== 'object' || chunk === null) return 'invalid_chunks';
  const c = chunk as Record<string, unknown>;
  switch (c.type) {
    case 'markdown_text':
      if (typeof c.text !== 'string') return 'invalid_chunks';
      return c.text.length > CALL_TEXT_LIMIT ? 'msg_too_long' : null;
    case 'task_update':
      if (typeof c.id !== 'string' || c.id === '') return 'invalid_chunks';
      if (typeof c.title !== 'string' || c.title === '' || c.title.length > TITLE_LIMIT)
        return 'invalid_chunks';
      if (typeof c.status !== 'string' || !TASK_STATUSES.has(c.status)) return 'invalid_chunks';
      if (c.details !== undefined && typeof c.details !== 'string') return 'invalid_chunks';
      if (c.output !== undefined && typeof c.output !== 'string') return 'invalid_chunks';
      return null;
    case 'plan_update':
      return typeof c.title === 'string' && c.title !== '' ? null : 'invalid_chunks';
    case 'blocks':
      return Array.isArray(c.blocks) && c.blocks.length <= 50 ? null : 'invalid_chunks';
    default:
      return 'invalid_chunks';
  }
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}
