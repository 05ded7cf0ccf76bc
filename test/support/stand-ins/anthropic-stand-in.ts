import { once } from 'node:events';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { cacheControlProblem, PromptCache, type PromptCacheUsage } from './anthropic-prompt-cache';
import { toolPairingProblem, toolsProblem } from './anthropic-tool-validation';

/** One content block the stand-in streams, in the order given. */
export type ScriptedBlock =
  | { type: 'text'; chunks: string[] }
  | { type: 'thinking'; chunks: string[] }
  | { type: 'tool_use'; name: string; input: Record<string, unknown> };

/** What the stand-in answers to one valid request. */
export type StandInReply =
  | {
      kind: 'stream';
      blocks: ScriptedBlock[];
      /** `end_turn` when absent. */
      stopReason?: 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';
      /** Stop writing after the last block's deltas and keep the connection open until the client leaves. */
      hold?: boolean;
      /** End the stream with an SSE `error` event after the blocks, as the API does when overloaded. */
      failWith?: { type: string; message: string };
      /** The answer starts once this resolves (a model call the test keeps in progress). */
      after?: Promise<void>;
    }
  | {
      kind: 'error';
      status: number;
      type: string;
      message: string;
      /** Sent as `retry-after-ms` (the SDK honours it), so retry tests stay fast. */
      retryAfterMs?: number;
    };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it did not parse). */
  body: unknown;
  /** The status the stand-in answered with. */
  status: number;
  /** Resolves when the client closed the connection before the stand-in finished the response. */
  closedEarly: Promise<void>;
}

export type Replier = (body: Record<string, unknown>) => StandInReply;

const KNOWN_FIELDS = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'stream',
  'thinking',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'metadata',
  'tools',
  'tool_choice',
  'service_tier',
]);

/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages`, `stream: true`),
 * speaking Server-Sent Events exactly as the real API does, answering from a script, and
 * refusing what the real service would refuse (headers, body shape, thinking budget) with
 * the API's error JSON. Loopback only.
 */
export class AnthropicStandIn {
  /** Every request received, unless started with `keepRequests: false`. */
  readonly requests: RecordedRequest[] = [];
  /** How many requests were received (kept or not). */
  received = 0;
  private keepRequests = true;
  reply: Replier = () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['ok'] }] });
  private counter = 0;
  private readonly scripted: StandInReply[] = [];
  /** A14: present when the stand-in counts tokens and keeps a prompt cache (`promptCache: true`). */
  private cache: PromptCache | undefined;

  /** Queues replies for the next valid requests, in order; then `reply` answers. */
  script(...replies: StandInReply[]): void {
    this.scripted.push(...replies);
  }

  private constructor(
    private readonly server: Server,
    readonly apiKey: string,
  ) {}

  /**
   * `promptCache`: usage counts the request's tokens (four characters each) and reports cache
   * writes and reads as the API does (`anthropic-prompt-cache.ts`); otherwise every request
   * reports 10 input tokens. `cache_control` marks are validated either way. `keepRequests:
   * false`: requests are counted (`received`), not kept — a bench's thousands of request bodies
   * would grow the heap of the process it measures from.
   */
  static async start(options: {
    apiKey: string;
    reply?: Replier;
    promptCache?: boolean;
    keepRequests?: boolean;
  }): Promise<AnthropicStandIn> {
    const server = createServer();
    const standIn = new AnthropicStandIn(server, options.apiKey);
    standIn.keepRequests = options.keepRequests ?? true;
    if (options.promptCache === true) standIn.cache = new PromptCache();
    if (options.reply !== undefined) standIn.reply = options.reply;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      standIn.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, 'api_error', `stand-in failure: ${String(error)}`);
        else res.destroy();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return standIn;
  }

  /** The base URL to hand the SDK (`baseURL`). */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let markClosed = () => {};
    const closedEarly = new Promise<void>((resolve) => {
      markClosed = resolve;
    });
    res.on('close', () => {
      if (!res.writableFinished) markClosed();
    });
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      status: 200,
      closedEarly,
    };
    this.received += 1;
    if (this.keepRequests) this.requests.push(record);
    const fail = (status: number, type: string, message: string) => {
      record.status = status;
      sendError(res, status, type, message);
    };

    if (record.method !== 'POST' || record.path.split('?')[0] !== '/v1/messages') {
      return fail(404, 'not_found_error', `Not found: ${record.method} ${record.path}`);
    }
    const key = req.headers['x-api-key'];
    if (typeof key !== 'string' || key === '') {
      return fail(401, 'authentication_error', 'x-api-key header is required');
    }
    if (key !== this.apiKey) return fail(401, 'authentication_error', 'invalid x-api-key');
    if (typeof req.headers['anthropic-version'] !== 'string') {
      return fail(400, 'invalid_request_error', 'anthropic-version: header is required');
    }
    if (!String(req.headers['content-type']).startsWith('application/json') || !isObject(body)) {
      return fail(400, 'invalid_request_error', 'There was an issue with the JSON body of the request');
    }
    const problem = validateBody(body) ?? cacheControlProblem(body);
    if (problem !== undefined) return fail(400, 'invalid_request_error', problem);

    const reply = this.scripted.shift() ?? this.reply(body);
    if (reply.kind === 'error') {
      record.status = reply.status;
      return sendError(res, reply.status, reply.type, reply.message, reply.retryAfterMs);
    }
    this.counter += 1;
    const usage = this.cache?.use(body) ?? {
      input_tokens: 10,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    await reply.after;
    await streamReply(res, reply, String(body.model), this.counter, usage);
  }
}

/** What the real API refuses, in its own words where known; undefined when the body is valid. */
export function validateBody(body: Record<string, unknown>): string | undefined {
  for (const field of Object.keys(body)) {
    if (!KNOWN_FIELDS.has(field)) return `${field}: Extra inputs are not permitted`;
  }
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  const maxTokens = body.max_tokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    return 'max_tokens: Input should be a positive integer';
  }
  if (body.stream !== true) return 'stream: this stand-in only serves streamed requests (stream: true)';
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  for (const [index, message] of messages.entries()) {
    if (!isObject(message)) return `messages.${index}: Input should be a valid dictionary`;
    const expected = index % 2 === 0 ? 'user' : 'assistant';
    if (message.role !== expected) {
      return index === 0
        ? 'messages: first message must use the "user" role'
        : 'messages: roles must alternate between "user" and "assistant"';
    }
    const content = message.content;
    const empty =
      (typeof content === 'string' && content === '') || (Array.isArray(content) && content.length === 0);
    if (typeof content !== 'string' && !Array.isArray(content)) {
      return `messages.${index}.content: Input should be a valid string or list`;
    }
    if (empty) return `messages.${index}: all messages must have non-empty content`;
  }
  const toolProblem =
    toolsProblem(body.tools) ??
    toolPairingProblem(
      messages as Record<string, unknown>[],
      isObject(body.thinking) && body.thinking.type === 'enabled',
    );
  if (toolProblem !== undefined) return toolProblem;
  const system = body.system;
  if (system !== undefined && typeof system !== 'string') {
    const blocks =
      Array.isArray(system) &&
      system.every((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string');
    if (!blocks) return 'system: Input should be a valid string or a list of text blocks';
  }
  const thinking = body.thinking;
  if (thinking !== undefined) {
    if (!isObject(thinking)) return 'thinking: Input should be a valid dictionary';
    if (thinking.type === 'enabled') {
      const budget = thinking.budget_tokens;
      if (typeof budget !== 'number' || !Number.isInteger(budget))
        return 'thinking.enabled.budget_tokens: Field required';
      if (budget < 1024)
        return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
      if (budget >= maxTokens) return '`max_tokens` must be greater than `thinking.budget_tokens`';
      if (body.temperature !== undefined && body.temperature !== 1) {
        return '`temperature` may only be set to 1 when thinking is enabled';
      }
    } else if (thinking.type !== 'disabled' && thinking.type !== 'adaptive') {
      return 'thinking.type: Input tag does not match any of the expected tags';
    }
  }
  return undefined;
}

async function streamReply(
  res: ServerResponse,
  reply: Extract<StandInReply, { kind: 'stream' }>,
  model: string,
  serial: number,
  usage: PromptCacheUsage,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'request-id': `req_standin_${serial}`,
  });
  const send = async (data: Record<string, unknown> & { type: string }) => {
    if (res.destroyed) return;
    res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
    // A tick between events, so the client sees a stream rather than one chunk.
    await new Promise((resolve) => setImmediate(resolve));
  };
  let outputTokens = 1;
  await send({
    type: 'message_start',
    message: {
      id: `msg_standin_${serial}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  await send({ type: 'ping' });
  for (const [index, block] of reply.blocks.entries()) {
    const last = index === reply.blocks.length - 1;
    if (block.type === 'text') {
      await send({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of block.chunks) {
        outputTokens += 1;
        await send({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
      }
    } else if (block.type === 'thinking') {
      await send({
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      for (const thinking of block.chunks) {
        outputTokens += 1;
        await send({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } });
      }
      await send({
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: 'c2ln' },
      });
    } else {
      const id = `toolu_standin_${serial}_${index}`;
      await send({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id, name: block.name, input: {} },
      });
      const partial = JSON.stringify(block.input);
      await send({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: partial },
      });
    }
    if (last && reply.hold === true) return; // the client decides when this ends
    await send({ type: 'content_block_stop', index });
  }
  if (reply.failWith !== undefined) {
    await send({ type: 'error', error: reply.failWith });
    res.end();
    return;
  }
  await send({
    type: 'message_delta',
    delta: {
      stop_reason:
        reply.stopReason ?? (reply.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
    },
    usage: { output_tokens: outputTokens },
  });
  await send({ type: 'message_stop' });
  res.end();
}

function sendError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  retryAfterMs?: number,
): void {
  const payload = JSON.stringify({ type: 'error', error: { type, message } });
  res.writeHead(status, {
    'content-type': 'application/json',
    'request-id': 'req_standin_error',
    ...(retryAfterMs === undefined ? {} : { 'retry-after-ms': String(retryAfterMs) }),
  });
  res.end(payload);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
