import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import { type RunningServer, startServer } from '../../../src/app/server';
import { type ConsoleWorld, openConsoleWorld, PEOPLE } from '../../support/console-world';
import { waitFor } from '../../support/engine-harness';

jest.setTimeout(180_000);

// A Redis database of its own: the web and worker processes share the server's default queue name.
const REDIS_URL = 'redis://127.0.0.1:6379/12';
/** The channel the processes' card changes cross on (the default prefix, as `summon serve` uses). */
const CHANGES = 'summon:live-cards:changes';

interface SseEvent {
  event: string;
  data: string;
}

/** `/console/live?view=runs` read as a browser's EventSource would: its events, as they come. */
async function openLiveStream(base: string, cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${base}/console/live?view=runs`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const events: SseEvent[] = [];
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event !== undefined && data !== undefined) events.push({ event, data });
      }
    }
  })().catch(() => undefined);
  return {
    events,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}

/** The run's card cell as the stream last drew it, from a `card` event or a table `update`. */
const cardsOf = (events: SseEvent[], runId: string): string[] =>
  events.flatMap(({ event, data }) => {
    if (event === 'card') {
      const card = JSON.parse(data) as { run: string; html: string };
      return card.run === runId ? [card.html] : [];
    }
    if (event !== 'update') return [];
    const html = JSON.parse(data) as string;
    const row = new RegExp(`<tr[^>]*data-run="${runId}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';
    return [/<td class="card"[^>]*>([\s\S]*?)<\/td>/.exec(row)?.[1] ?? ''];
  });

/**
 * O5 with `SUMMON_ROLE=web` and `SUMMON_ROLE=worker` on one Redis: the turn runs in the worker,
 * the console is served by the web process, and the turn's status card rows reach the web
 * process's live stream (Server-Sent Events) across Redis. Both servers as wired (`startServer`),
 * signed Slack events into the web process, the real Anthropic SDK against its stand-in.
 */
describe('O5 live cards on the console when web and worker processes are split', () => {
  let w: ConsoleWorld;
  let worker: RunningServer | null = null;
  let watching: ReturnType<typeof createRedisClient> | null = null;
  /** The live streams opened, closed before the servers (a server's close waits for them). */
  const streams: { close(): Promise<void> }[] = [];
  const watch = async (cookie: string) => {
    const stream = await openLiveStream(w.base, cookie);
    streams.push(stream);
    return stream;
  };
  /** Lets the turn's held model call answer, so the worker can close. */
  let release = () => {};

  beforeEach(async () => {
    const redis = createRedisClient(REDIS_URL);
    await redis.flushdb();
    await redis.quit();
    w = await openConsoleWorld({ env: { REDIS_URL, SUMMON_ROLE: 'web' } });
    worker = await startServer({ ...w.env, SUMMON_ROLE: 'worker' }, process.cwd());
  });
  afterEach(async () => {
    release();
    await Promise.all(streams.splice(0).map((stream) => stream.close()));
    await watching?.quit();
    watching = null;
    await worker?.close();
    worker = null;
    await w?.close();
  });

  it('O5 a turn run by the worker shows its card rows on the web process’s live stream; nothing crosses while nobody watches', async () => {
    let round = 0;
    const released = new Promise<void>((resolve) => (release = resolve));
    w.anthropic.reply = (body) => {
      const rounds = JSON.stringify(body.messages).split('"tool_result"').length - 1;
      round = Math.max(round, rounds + 1);
      if (rounds === 0)
        return { kind: 'stream', blocks: [{ type: 'tool_use', name: 'list_files', input: { path: '.' } }] };
      return { kind: 'stream', blocks: [{ type: 'text', chunks: ['done'] }], after: released };
    };
    // Every card message that crosses Redis, seen by a plain subscriber.
    const crossed: string[] = [];
    watching = createRedisClient(REDIS_URL);
    watching.on('message', (_channel: string, message: string) => crossed.push(message));
    await watching.subscribe(CHANGES);

    // The turn runs to its held second model call (its list_files row ended) with nobody watching.
    await w.mention('ada', '@engineer look around');
    await waitFor(async () => round === 2);
    const runs = await w.store.transaction((tx) => tx.runs.listByStatus(['running']));
    expect(runs).toHaveLength(1);
    const runId = runs[0]?.id ?? '';
    expect(crossed).toEqual([]);

    // A viewer opens the live runs: the worker is asked for its cards and sends this one.
    const { session } = await w.signInWithSlack(PEOPLE.ada.slack);
    if (session === null) throw new Error('ada could not sign in');
    const first = await watch(session.cookie);
    const cell = await waitFor(
      async () => cardsOf(first.events, runId).find((html) => html.includes('✓')) ?? null,
      30_000,
      () => `; events: ${JSON.stringify(first.events)}; crossed: ${JSON.stringify(crossed)}`,
    );
    expect(cell).toContain('<span class="headline">');
    expect(crossed.length).toBeGreaterThan(0);
    expect(crossed.every((m) => Buffer.byteLength(m) < 4096)).toBe(true);

    // A second viewer of the same web process is drawn the card at once, from what was received.
    const second = await watch(session.cookie);
    const update = await waitFor(async () => second.events.find((e) => e.event === 'update') ?? null);
    expect(cardsOf([update], runId)[0]).toContain('✓');
  });
});
