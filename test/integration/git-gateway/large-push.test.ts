import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ENGINE_SETUPS } from '../../support/engine-harness';
import { type GatewayFixture, openGatewayFixture } from './gateway-fixture';

const run = promisify(execFile);
const MB = 1024 * 1024;

/** Samples this process's RSS until stopped; returns the peak growth over the starting RSS. */
function rssWatch() {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  return () => {
    clearInterval(timer);
    return peak - start;
  };
}

describe('large pushes stream through the gateway (memory bounded)', () => {
  let f: GatewayFixture;
  beforeEach(async () => {
    f = await openGatewayFixture(ENGINE_SETUPS[0]);
  });
  afterEach(() => f.close());

  const bigCommit = async (mb: number) => {
    await run('sh', ['-c', `head -c ${mb * MB} /dev/urandom > big.bin`], { cwd: f.work });
    await f.inWork(['add', 'big.bin']);
    await f.inWork(['commit', '-q', '-m', `${mb} MB`]);
    return (await f.inWork(['rev-parse', 'HEAD'])).stdout.trim();
  };

  it('a 100 MB push (allow): the 0000 probe and the chunked body pass; gateway memory stays bounded', async () => {
    await f.setRule('allow');
    const head = await bigCommit(100);
    global.gc?.();
    const stop = rssWatch();
    const pushed = await f.startPush(['origin', 'main']);
    const growth = stop();
    expect(pushed.code).toBe(0);
    expect(await f.upstreamRef('refs/heads/main')).toBe(head);
    // git probes with `0000` before a body larger than http.postBuffer, then sends it chunked.
    const receives = f.upstream.seen.filter((s) => s.url.endsWith('/git-receive-pack'));
    expect(receives.length).toBe(2);
    expect(growth).toBeLessThan(48 * MB);
  }, 180_000);

  it('a 30 MB push waiting on approval is spooled to disk, not memory, then forwarded', async () => {
    await f.setRule('ask');
    const head = await bigCommit(30);
    global.gc?.();
    const stop = rssWatch();
    const push = f.startPush(['origin', 'main']);
    const card = await f.approvalCard();
    if (card.kind !== 'posted') throw new Error('no card');
    await f.h.type('/thread 1');
    await f.h.type(`/approve ${card.cardNumber}`);
    const pushed = await push;
    const growth = stop();
    expect(pushed.code).toBe(0);
    expect(await f.upstreamRef('refs/heads/main')).toBe(head);
    expect(growth).toBeLessThan(30 * MB);
  }, 180_000);
});
