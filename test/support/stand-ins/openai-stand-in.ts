import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openAiUserParts } from './image-content-validation';
import { schemaProblem } from './json-schema-check';

/** What the stand-in answers to one valid chat-completions request. */
export type ChatReply =
  /** Streams these content deltas; with `hold`, then keeps the stream open until the client leaves. */
  | {
      kind: 'stream';
      deltas: string[];
      hold?: boolean;
      /** Tool calls streamed after the content, ending with `finish_reason: "tool_calls"`. */
      toolCalls?: { name: string; arguments: Record<string, unknown> | string }[];
    }
  /** Answers with an HTTP error and OpenAI's error body. */
  | {
      kind: 'error';
      status: number;
      message: string;
      type?: string;
      code?: string | null;
      /** Sent as `retry-after-ms` (the SDK honours it), so retry tests stay fast. */
      retryAfterMs?: number;
    };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  /** P13: the images of a user message sent as content parts (`image_url` data URLs). */
  images?: { mediaType: string; bytes: Buffer }[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  /** The parsed body when it was JSON. */
  body: unknown;
  /** Filled in when the request passed validation. */
  model?: string;
  messages?: ChatMessage[];
}

export interface OpenAiStandInOptions {
  /** When set, every request must carry `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
  /** When set, other models are answered with 404 `model_not_found`; `GET /v1/models` lists them. */
  models?: string[];
  /**
   * Ollama: also serve `GET /api/tags` listing these pulled models (Ollama serves its
   * OpenAI-compatible API under `/v1` of the same root), without a key.
   */
  ollamaTags?: string[];
  /**
   * A14: as a server with prefix caching (vLLM, llama.cpp): `prompt_tokens` counts the request's
   * tools and messages (four characters a token) and `cached_tokens` the longest prefix it shares,
   * byte for byte, with an earlier request. Otherwise every request reports fixed counts.
   */
  prefixCache?: boolean;
}

/** The usage the stand-in reports for every completion (`stream_options.include_usage`). */
export const STAND_IN_PROMPT_TOKENS = 20;
export const STAND_IN_CACHED_TOKENS = 4;

/**
 * A local OpenAI-compatible chat-completions server (127.0.0.1 only) for the real `openai` SDK:
 * `POST /v1/chat/completions` with `stream: true` answered as server-sent events exactly like
 * the real API. It validates what it receives like a real server (key, body shape, model) and
 * records every request. Replies are scripted per test; unscripted requests get `fallback`.
 */
export class OpenAiStandIn {
  readonly requests: RecordedRequest[] = [];
  /** Streams whose client went away before the stream ended (aborted turns). */
  disconnects = 0;
  fallback: ChatReply = { kind: 'stream', deltas: ['Hello', ' from', ' the stand-in.'] };
  private readonly replies: ChatReply[] = [];
  private readonly server: Server;
  private sequence = 0;
  /** A14: the prompts seen, serialized (`prefixCache`). */
  private readonly prompts: string[] = [];

  private constructor(private readonly options: OpenAiStandInOptions) {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  static async start(options: OpenAiStandInOptions = {}): Promise<OpenAiStandIn> {
    const standIn = new OpenAiStandIn(options);
    standIn.server.listen(0, '127.0.0.1');
    await once(standIn.server, 'listening');
    const { port } = standIn.server.address() as AddressInfo;
    standIn.rootUrl = `http://127.0.0.1:${port}`;
    standIn.baseUrl = `${standIn.rootUrl}/v1`;
    return standIn;
  }

  /** The API root to hand to a client as its base URL (kept after `close`). */
  baseUrl = '';
  /** The server's root (Ollama's address: `/api/tags` and `/v1`). */
  rootUrl = '';

  /** Queues replies for the next valid requests, in order. */
  script(...replies: ChatReply[]): void {
    this.replies.push(...replies);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const record: RecordedRequest = {
      method: req.method ?? '',
      path,
      authorization: req.headers.authorization,
      body: parseJson(raw),
    };
    this.requests.push(record);
    if (this.options.ollamaTags !== undefined && path === '/api/tags' && req.method === 'GET') {
      // Ollama's list of pulled models (GET /api/tags), trimmed to the fields clients read.
      const models = this.options.ollamaTags.map((name) => ({
        name,
        model: name,
        modified_at: '2026-11-30T10:00:00.000000000Z',
        size: 2_019_393_189,
        digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
        details: { format: 'gguf', family: 'llama', parameter_size: '3.2B', quantization_level: 'Q4_K_M' },
      }));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ models }));
      return;
    }

    if (this.options.apiKey !== undefined && req.headers.authorization !== `Bearer ${this.options.apiKey}`) {
      const sent = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const message =
        sent === undefined
          ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
          : `Incorrect API key provided: ${mask(sent)}. You can find your API key at https://platform.openai.com/account/api-keys.`;
      return sendError(res, 401, message, 'invalid_request_error', 'invalid_api_key');
    }
    if (path === '/v1/models' && req.method === 'GET') {
      const data = (this.options.models ?? []).map((id) => ({
        id,
        object: 'model',
        created: 1_700_000_000,
        owned_by: 'stand-in',
      }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data }));
      return;
    }
    if (path !== '/v1/chat/completions') {
      return sendError(res, 404, `Invalid URL (${req.method} ${path})`, 'invalid_request_error', null);
    }
    if (req.method !== 'POST') {
      return sendError(
        res,
        405,
        `Invalid method for URL (${req.method} ${path})`,
        'invalid_request_error',
        null,
      );
    }
    const problem = validateBody(record.body);
    if (typeof problem === 'string') return sendError(res, 400, problem, 'invalid_request_error', null);
    record.model = problem.model;
    record.messages = problem.messages;
    if (this.options.models !== undefined && !this.options.models.includes(problem.model)) {
      return sendError(
        res,
        404,
        `The model \`${problem.model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
    }

    const reply = this.replies.shift() ?? this.fallback;
    if (reply.kind === 'error') {
      return sendError(
        res,
        reply.status,
        reply.message,
        reply.type ?? 'server_error',
        reply.code ?? null,
        reply.retryAfterMs,
      );
    }
    const streamOptions = (record.body as { stream_options?: { include_usage?: unknown } }).stream_options;
    await this.stream(
      res,
      problem.model,
      reply,
      streamOptions?.include_usage === true,
      this.promptUsage(record.body),
    );
  }

  /** The prompt's token counts: fixed, or with `prefixCache` counted and matched against earlier prompts. */
  private promptUsage(body: unknown): { prompt: number; cached: number } {
    if (this.options.prefixCache !== true)
      return { prompt: STAND_IN_PROMPT_TOKENS, cached: STAND_IN_CACHED_TOKENS };
    const { tools, messages } = body as { tools?: unknown; messages?: unknown };
    const text = JSON.stringify({ tools, messages });
    let shared = 0;
    for (const earlier of this.prompts) shared = Math.max(shared, commonPrefix(earlier, text));
    this.prompts.push(text);
    return { prompt: Math.ceil(text.length / 4), cached: Math.floor(shared / 4) };
  }

  private async stream(
    res: ServerResponse,
    model: string,
    reply: Extract<ChatReply, { kind: 'stream' }>,
    includeUsage: boolean,
    tokens: { prompt: number; cached: number },
  ): Promise<void> {
    const { deltas } = reply;
    const hold = reply.hold === true;
    this.sequence += 1;
    const id = `chatcmpl-standin${this.sequence}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, unknown>, finishReason: string | null): string =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        system_fingerprint: null,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        // With `stream_options.include_usage`, every chunk carries `usage: null` but the last.
        ...(includeUsage ? { usage: null } : {}),
      })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    let finished = false;
    res.on('close', () => {
      if (!finished) this.disconnects += 1;
    });
    res.write(chunk({ role: 'assistant', content: '' }, null));
    for (const content of deltas) {
      res.write(chunk({ content }, null));
      // A separate network write per delta, as a real server streams tokens.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (hold) {
      await once(res, 'close');
      return;
    }
    const calls = reply.toolCalls ?? [];
    for (const [index, call] of calls.entries()) {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      const id = `call_standin${this.sequence}_${index}`;
      // As the API streams a call: id, type and name first, then the arguments in fragments.
      res.write(
        chunk(
          { tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] },
          null,
        ),
      );
      const half = Math.ceil(args.length / 2);
      for (const part of [args.slice(0, half), args.slice(half)]) {
        if (part !== '') res.write(chunk({ tool_calls: [{ index, function: { arguments: part } }] }, null));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    res.write(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
    if (includeUsage) {
      // As the API sends it: one more chunk, no choices, the whole request's usage.
      const completionTokens = deltas.length + calls.length;
      res.write(
        `data: ${JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          system_fingerprint: null,
          choices: [],
          usage: {
            prompt_tokens: tokens.prompt,
            completion_tokens: completionTokens,
            total_tokens: tokens.prompt + completionTokens,
            prompt_tokens_details: { cached_tokens: tokens.cached, audio_tokens: 0 },
            completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
          },
        })}\n\n`,
      );
    }
    res.write('data: [DONE]\n\n');
    finished = true;
    res.end();
  }
}

function validateBody(body: unknown): { model: string; messages: ChatMessage[] } | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return 'We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.';
  }
  const fields = body as Record<string, unknown>;
  if (typeof fields.model !== 'string' || fields.model === '') return 'you must provide a model parameter';
  if (!Array.isArray(fields.messages) || fields.messages.length === 0) {
    return "Invalid 'messages': expected a non-empty array.";
  }
  const messages: ChatMessage[] = [];
  for (const [index, message] of fields.messages.entries()) {
    const entry: unknown = message;
    if (typeof entry !== 'object' || entry === null) return `Invalid type for 'messages[${index}]'.`;
    const parsed = parseMessage(entry as Record<string, unknown>, index);
    if (typeof parsed === 'string') return parsed;
    messages.push(parsed);
  }
  const pairing = toolMessagesProblem(messages);
  if (pairing !== undefined) return pairing;
  const tools = toolsProblem(fields.tools);
  if (tools !== undefined) return tools;
  if (fields.stream !== true) return 'This stand-in only serves streamed completions: set stream to true.';
  return { model: fields.model, messages };
}

function parseMessage(entry: Record<string, unknown>, index: number): ChatMessage | string {
  const { role, content } = entry;
  if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') {
    return `Invalid value for 'messages[${index}].role': ${JSON.stringify(role)}.`;
  }
  const toolCalls = entry.tool_calls;
  if (role === 'assistant' && toolCalls !== undefined) {
    if (!Array.isArray(toolCalls) || toolCalls.length === 0) {
      return `Invalid 'messages[${index}].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.`;
    }
    for (const [c, call] of toolCalls.entries()) {
      const fn = (call as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
      const id = (call as { id?: unknown } | null)?.id;
      if (typeof id !== 'string' || typeof fn?.name !== 'string' || typeof fn.arguments !== 'string') {
        return `Missing required parameter: 'messages[${index}].tool_calls[${c}].function'.`;
      }
    }
    if (content !== null && content !== undefined && typeof content !== 'string') {
      return `Invalid type for 'messages[${index}].content': expected a string or null.`;
    }
    return {
      role,
      content: typeof content === 'string' ? content : null,
      tool_calls: toolCalls as NonNullable<ChatMessage['tool_calls']>,
    };
  }
  if (role === 'user' && Array.isArray(content)) {
    const parts = openAiUserParts(content, index);
    if (typeof parts === 'string') return parts;
    return { role, content: parts.text, images: parts.images };
  }
  if (typeof content !== 'string') return `Invalid type for 'messages[${index}].content': expected a string.`;
  if (role === 'tool') {
    if (typeof entry.tool_call_id !== 'string') {
      return `Missing required parameter: 'messages[${index}].tool_call_id'.`;
    }
    return { role, content, tool_call_id: entry.tool_call_id };
  }
  return { role, content };
}

/** Each `tool` message answers a call of the assistant message before it; every call is answered. */
function toolMessagesProblem(messages: readonly ChatMessage[]): string | undefined {
  let open: Set<string> | null = null;
  let opener = -1;
  const unanswered = () =>
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...(open ?? [])].join(', ')}`;
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (open === null || !open.has(message.tool_call_id ?? '')) {
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
      }
      open.delete(message.tool_call_id ?? '');
      continue;
    }
    if (open !== null && open.size > 0) return unanswered();
    open = message.tool_calls ? new Set(message.tool_calls.map((call) => call.id)) : null;
    opener = index;
  }
  if (open !== null && open.size > 0 && opener >= 0) return unanswered();
  return undefined;
}

const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function toolsProblem(tools: unknown): string | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return "Invalid type for 'tools': expected an array of tool definitions.";
  for (const [index, tool] of tools.entries()) {
    const entry = tool as { type?: unknown; function?: { name?: unknown; parameters?: unknown } } | null;
    if (entry?.type !== 'function') return `Invalid value for 'tools[${index}].type': expected 'function'.`;
    const name = entry.function?.name;
    if (typeof name !== 'string' || !FUNCTION_NAME.test(name)) {
      return `Invalid 'tools[${index}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`;
    }
    const parameters = entry.function?.parameters;
    if (parameters !== undefined) {
      const problem = schemaProblem(parameters);
      if (problem !== undefined) return `Invalid schema for function '${name}': ${problem}.`;
    }
  }
  return undefined;
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
  retryAfterMs?: number,
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(retryAfterMs === undefined ? {} : { 'retry-after-ms': String(retryAfterMs) }),
  });
  res.end(JSON.stringify({ error: { message, type, param: null, code } }));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** Masks a key as OpenAI does in its 401 message: a few characters either side. */
const mask = (key: string): string =>
  key.length <= 8 ? '*'.repeat(key.length) : `${key.slice(0, 3)}*****${key.slice(-4)}`;

/** How many leading characters `a` and `b` share. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
