import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { leanFetch } from '../../../src/adapters/http/lean-fetch';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A local HTTP server answering with `handler`; each request's method, path, headers and body kept. */
async function serve(handler: Handler) {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, body, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * T3: the fetch Summon hands the model SDK and Slack's Web API client answers as the global
 * `fetch` does (status, headers, body, streamed events, errors, aborts), over `node:http`.
 */
describe('T3: the lean fetch answers as fetch does', () => {
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends the method, headers and body, and answers the status, headers (repeated ones kept) and whole body', async () => {
    server = await serve((_req, body, res) => {
      res.writeHead(201, {
        'content-type': 'application/json',
        'x-answer': 'yes',
        'set-cookie': ['a=1', 'b=2'],
      });
      res.end(JSON.stringify({ echoed: JSON.parse(body) }));
    });
    const response = await leanFetch()(`${server.url}/api/chat.postMessage?x=1`, {
      method: 'POST',
      headers: new Headers({
        'Content-Type': 'application/json; charset=utf-8',
        Authorization: 'Bearer xoxb-1',
      }),
      body: JSON.stringify({ text: 'héllo' }),
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-answer')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ echoed: { text: 'héllo' } });
    const [request] = server.seen;
    expect(request).toMatchObject({ method: 'POST', url: '/api/chat.postMessage?x=1' });
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      authorization: 'Bearer xoxb-1',
      'content-length': String(Buffer.byteLength(JSON.stringify({ text: 'héllo' }))),
    });
  });

  it('takes headers as a plain record (a null dropped) and a form as URL-encoded text', async () => {
    server = await serve((_req, _body, res) => res.end('ok'));
    const response = await leanFetch()(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-none': null as unknown as string },
      body: new URLSearchParams({ channel: 'C1', text: 'a b' }),
    });
    expect(await response.text()).toBe('ok');
    expect(server.seen[0]?.body).toBe('channel=C1&text=a+b');
    expect(server.seen[0]?.headers['x-none']).toBeUndefined();
  });

  it('streams an event stream: the first event is read before the server has ended the answer', async () => {
    let finish: () => void = () => {};
    server = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: one\ndata: {}\n\n');
      finish = () => res.end('event: two\ndata: {}\n\n');
    });
    const response = await leanFetch()(server.url, { method: 'POST', body: '{}' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value ?? []).toString()).toBe('event: one\ndata: {}\n\n');
    finish();
    const rest: string[] = [];
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      rest.push(Buffer.from(next.value).toString());
    }
    expect(rest.join('')).toBe('event: two\ndata: {}\n\n');
  });

  it('P7: a server that takes the request and never answers fails it as a lost connection, after the idle bound', async () => {
    server = await serve(() => {});
    const started = Date.now();
    const failure = await leanFetch({ idleTimeoutMs: 150 })(server.url, { method: 'POST', body: '{}' }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(String((failure as TypeError).cause)).toContain('no answer within 150 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('a refused connection fails as fetch fails: TypeError("fetch failed") with the cause', async () => {
    const closed = await serve(() => {});
    const url = closed.url;
    await closed.close();
    const failure = await leanFetch()(url, { method: 'POST', body: '{}' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(String((failure as TypeError).cause)).toContain('ECONNREFUSED');
  });

  it('an abort rejects with the signal’s reason, before the request and while it waits', async () => {
    server = await serve(() => {});
    const early = new AbortController();
    early.abort();
    await expect(leanFetch()(server.url, { signal: early.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    const late = new AbortController();
    const pending = leanFetch()(server.url, { method: 'POST', body: '{}', signal: late.signal });
    await new Promise((resolve) => setTimeout(resolve, 30));
    late.abort(new Error('stopped by a person'));
    await expect(pending).rejects.toThrow('stopped by a person');
  });

  it('a redirect: refused under redirect "error", followed (by the global fetch) otherwise', async () => {
    server = await serve((req, _body, res) => {
      if (req.url === '/moved') {
        res.writeHead(302, { location: '/here' });
        res.end();
      } else res.end(`at ${req.url}`);
    });
    const refused = await leanFetch()(`${server.url}/moved`, { redirect: 'error' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    const followed = await leanFetch()(`${server.url}/moved`);
    expect(await followed.text()).toBe('at /here');
  });

  it('a body it does not take itself (a multipart form) goes through the global fetch', async () => {
    server = await serve((req, body, res) =>
      res.end(`${req.headers['content-type']?.split(';')[0]} ${body.includes('file-bytes')}`),
    );
    const form = new FormData();
    form.append('file', new Blob(['file-bytes']), 'a.txt');
    const response = await leanFetch()(server.url, { method: 'POST', body: form });
    expect(await response.text()).toBe('multipart/form-data true');
  });

  it('answers 204 with no body', async () => {
    server = await serve((_req, _body, res) => {
      res.writeHead(204);
      res.end();
    });
    const response = await leanFetch()(server.url, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });
});
