import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ENGINE_SETUPS } from '../../support/engine-harness';
import { type GatewayFixture, openGatewayFixture } from './gateway-fixture';

const run = promisify(execFile);
const MB = 1024 * 1024;

/**
 * A full garbage collection on demand, without starting jest under `--expose-gc`: the flag set
 * at run time, the function taken from a fresh context.
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Bytes this process holds (JS heap and Buffers) after a full collection. */
const retained = () => {
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

/**
 * Samples, until stopped, how much more this process (the gateway, in-process) retains than at
 * the start; returns the peak. Retained bytes, not RSS: RSS also counts garbage not yet
 * collected, which on a busy machine can be a whole push's worth of forwarded chunks, held by
 * nothing. Each second the heap is read as it stands, garbage included, which is never less than
 * what survives a collection: below `limit` that reading is the sample; at or above it, the
 * sample is what survives a full collection. The peak is under `limit` exactly when every
 * retained sample is, and a full collection (whose cost grows with the worker's heap, whatever
 * earlier test files left in it) is forced only when a sample could reach the limit.
 */
function retainedWatch(limit: number) {
  const start = retained();
  let peak = 0;
  const sample = () => {
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    const upperBound = heapUsed + arrayBuffers - start;
    peak = Math.max(peak, upperBound < limit ? upperBound : retained() - start);
  };
  const timer = setInterval(sample, 1000);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
}

describe('large pushes stream through the gateway (memory bounded)', () => {
  let f: GatewayFixture;
  beforeEach(async () => {
    f = await openGatewayFixture(ENGINE_SETUPS[0]);
  });
  afterEach(() => f.close());

  const bigCommit = async (mb: number) => {
    // Random bytes do not compress: storing them (level 0) spares git's zlib tens of CPU
    // seconds on a busy 2-core machine without changing what crosses the gateway.
    await f.inWork(['config', 'core.compression', '0']);
    await run('sh', ['-c', `head -c ${mb * MB} /dev/urandom > big.bin`], { cwd: f.work });
    await f.inWork(['add', 'big.bin']);
    await f.inWork(['commit', '-q', '-m', `${mb} MB`]);
    return (await f.inWork(['rev-parse', 'HEAD'])).stdout.trim();
  };

  it('a 100 MB push (allow): the 0000 probe and the chunked body pass; gateway memory stays bounded', async () => {
    await f.setRule('allow');
    const head = await bigCommit(100);
    const bound = 48 * MB;
    const stop = retainedWatch(bound);
    const pushed = await f.startPush(['origin', 'main']);
    const growth = stop();
    expect(pushed.code).toBe(0);
    expect(await f.upstreamRef('refs/heads/main')).toBe(head);
    // git probes with `0000` before a body larger than http.postBuffer, then sends it chunked.
    const receives = f.upstream.seen.filter((s) => s.url.endsWith('/git-receive-pack'));
    expect(receives.length).toBe(2);
    expect(growth).toBeLessThan(bound);
  }, 180_000);

  it('a 30 MB push waiting on approval is spooled to disk, not memory, then forwarded', async () => {
    await f.setRule('ask');
    const head = await bigCommit(30);
    const bound = 30 * MB;
    const stop = retainedWatch(bound);
    const push = f.startPush(['origin', 'main']);
    const card = await f.approvalCard();
    if (card.kind !== 'posted') throw new Error('no card');
    await f.h.type('/thread 1');
    await f.h.type(`/approve ${card.cardNumber}`);
    const pushed = await push;
    const growth = stop();
    expect(pushed.code).toBe(0);
    expect(await f.upstreamRef('refs/heads/main')).toBe(head);
    expect(growth).toBeLessThan(bound);
  }, 180_000);
});
