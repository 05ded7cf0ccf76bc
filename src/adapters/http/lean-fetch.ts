import http from 'node:http';
import https from 'node:https';

/** What the SDKs hand a `fetch`: the parts this one takes itself; anything else goes to the global one. */
type FetchInput = string | URL | Request;

export interface LeanFetchOptions {
  /**
   * A request whose connection stays silent this long (no byte of the answer) fails as a lost
   * connection does. 0: no bound of its own (a caller's signal still aborts it).
   */
  idleTimeoutMs?: number;
}

/**
 * Connections kept between calls, as Node's own agent keeps them: an idle one is closed after a
 * while, before a server's usual 5 s keep-alive ends it, so a call seldom meets a connection the
 * server is closing.
 */
const KEEP_ALIVE = { keepAlive: true, timeout: 4_000 };
const agents = {
  'http:': new http.Agent(KEEP_ALIVE),
  'https:': new https.Agent(KEEP_ALIVE),
};

/**
 * T3: `fetch` for the SDKs' calls on a turn's path (the model's Messages API, Slack's Web API),
 * over `node:http` with kept-alive connections. The global `fetch` gives every request an abort
 * controller held through a `WeakRef` and a finalization registry, web streams and a timeout
 * signal; a young-generation collection keeps what a `WeakRef` points at, so each call's objects
 * outlived it and every few seconds a full collection ran on every CPU, stalling the turns (see
 * `docs/turns-and-capacity.md`). Here a request holds plain Node objects that die with it.
 *
 * It answers as `fetch` does: a `Response` (a streamed body for `text/event-stream`, else the
 * whole body), a `TypeError('fetch failed', { cause })` for a connection that failed, the signal's
 * reason when aborted. A body or a redirect it does not take (a form, a stream, `redirect:
 * 'follow'` on a 3xx) goes to the global `fetch`.
 */
export function leanFetch(options: LeanFetchOptions = {}): typeof fetch {
  const idleTimeoutMs = options.idleTimeoutMs ?? 0;
  return (input: FetchInput, init: RequestInit = {}) => {
    const body = plainBody(init.body);
    if (input instanceof Request || body === undefined) return fetch(input, init);
    const url = input instanceof URL ? input : new URL(input);
    const agent = agents[url.protocol as keyof typeof agents];
    if (agent === undefined) return fetch(input, init);
    return send(url, agent, init, body, idleTimeoutMs).then((answer) =>
      answer === 'redirected' ? fetch(input, init) : answer,
    );
  };
}

/** The body as bytes or text, null when there is none; undefined for a kind this fetch leaves to the global one. */
function plainBody(body: RequestInit['body']): string | Uint8Array | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

function send(
  url: URL,
  agent: http.Agent,
  init: RequestInit,
  body: string | Uint8Array | null,
  idleTimeoutMs: number,
): Promise<Response | 'redirected'> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: init.method ?? (body === null ? 'GET' : 'POST'),
      headers: headerRecord(init.headers, body),
      agent,
      ...(signal === undefined ? {} : { signal }),
    });
    const failed = (error: unknown) => {
      if (signal?.aborted) reject(signal.reason);
      else reject(new TypeError('fetch failed', { cause: error }));
    };
    request.once('error', failed);
    if (idleTimeoutMs > 0)
      request.setTimeout(idleTimeoutMs, () =>
        request.destroy(new Error(`no answer within ${idleTimeoutMs} ms`)),
      );
    request.once('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location !== undefined) {
        response.resume();
        if (init.redirect === 'manual') resolve(answer(response, null));
        else if (init.redirect === 'error')
          reject(new TypeError('fetch failed', { cause: 'unexpected redirect' }));
        else resolve('redirected');
        return;
      }
      if (isEventStream(response)) {
        resolve(answer(response, streamOf(response)));
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', failed);
      response.once('end', () => resolve(answer(response, Buffer.concat(chunks))));
    });
    request.end(body ?? undefined);
  });
}

function headerRecord(
  headers: RequestInit['headers'],
  body: string | Uint8Array | null,
): http.OutgoingHttpHeaders {
  const record: http.OutgoingHttpHeaders = {};
  if (headers instanceof Headers) for (const [name, value] of headers) record[name] = value;
  else if (Array.isArray(headers))
    for (const [name, value] of headers) record[String(name).toLowerCase()] = value;
  else if (headers !== undefined)
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined && value !== null) record[name.toLowerCase()] = String(value);
  if (body !== null && record['content-length'] === undefined)
    record['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  return record;
}

const isEventStream = (response: http.IncomingMessage) =>
  String(response.headers['content-type'] ?? '').startsWith('text/event-stream');

/** The answer's bytes as they come, for a stream the SDK reads event by event. */
function streamOf(response: http.IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      response.on('data', (chunk: Buffer) => controller.enqueue(chunk));
      response.once('end', () => controller.close());
      response.once('error', (error) => controller.error(new TypeError('terminated', { cause: error })));
    },
    cancel() {
      response.destroy();
    },
  });
}

const NO_BODY = new Set([101, 103, 204, 205, 304]);

function answer(response: http.IncomingMessage, body: Buffer | ReadableStream<Uint8Array> | null): Response {
  const status = response.statusCode ?? 0;
  // The headers as received (repeated ones kept), read once by the Response itself.
  const headers: [string, string][] = [];
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i] as string, raw[i + 1] as string]);
  return new Response(NO_BODY.has(status) ? null : body, {
    status,
    statusText: response.statusMessage ?? '',
    headers,
  });
}
