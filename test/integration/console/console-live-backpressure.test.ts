import type { IncomingMessage } from 'node:http';
import { request } from 'node:http';
import { type ConsoleWorld, openConsoleWorld, PEOPLE } from '../../support/console-world';
import { waitFor } from '../../support/engine-harness';

jest.setTimeout(120_000);

/** Changes made to the card while the viewer reads nothing: far more than a socket's buffers hold. */
const CHANGES = 3_000;

/**
 * O5: a viewer whose connection reads slower than a turn's card changes is not queued every
 * change in the server's memory: while their connection is full, card events are dropped, and
 * once it drains the page is drawn again with the card as it is then. Summon's server as wired,
 * a turn held running by the model stand-in, the live stream read over a raw HTTP connection
 * that stops reading, as a stalled browser tab's would.
 */
describe('O5 the live stream of a slow viewer', () => {
  let w: ConsoleWorld;
  let release = () => {};
  let stream: IncomingMessage | null = null;

  beforeEach(async () => {
    w = await openConsoleWorld();
  });
  afterEach(async () => {
    release();
    stream?.destroy();
    await w?.close();
  });

  it('O5 drops card events while the viewer’s connection is full and redraws the latest card once it drains', async () => {
    const released = new Promise<void>((resolve) => (release = resolve));
    w.anthropic.reply = () => ({
      kind: 'stream',
      blocks: [{ type: 'text', chunks: ['done'] }],
      after: released,
    });
    await w.mention('ada', '@engineer take your time');
    const runId = await waitFor(async () => {
      const running = await w.store.transaction((tx) => tx.runs.listByStatus(['running']));
      return running[0]?.id ?? null;
    });
    const { session } = await w.signInWithSlack(PEOPLE.ada.slack);
    if (session === null) throw new Error('ada could not sign in');

    let received = '';
    stream = await new Promise<IncomingMessage>((resolve, reject) => {
      request(`${w.base}/console/live?view=runs`, { headers: { cookie: session.cookie } }, resolve)
        .on('error', reject)
        .end();
    });
    expect(stream.statusCode).toBe(200);
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      received += chunk;
    });
    await waitFor(async () => received.includes(`data-run=\\"${runId}\\"`));

    // The viewer stops reading; the turn's card changes many times, each change a few KB.
    stream.pause();
    const seen = received.length;
    const board = w.server.runtime.liveCards;
    for (let i = 1; i <= CHANGES; i++) board.headline(runId, `step ${i} ${'·'.repeat(2_000)}`);
    stream.resume();

    // Once drained, the page is drawn again with the card as it is now.
    await waitFor(async () => received.slice(seen).includes(`step ${CHANGES} `), 30_000);
    const after = received.slice(seen);
    const cardEvents = after.split('event: card\n').length - 1;
    // Without the backpressure every change would have been queued and sent: CHANGES events.
    expect(cardEvents).toBeLessThan(CHANGES / 10);
    expect(after).toContain('event: update\n');
  });
});
