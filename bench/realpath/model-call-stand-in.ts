import { createServer } from 'node:http';
import { AnthropicStandIn } from '../../test/support/stand-ins/anthropic-stand-in';
import { setting } from './bot-setup';

/**
 * `model-call`'s Anthropic stand-in, in a process of its own (`model-call-bench.ts` starts it)
 * so that the bench's process CPU is the client's alone: the repo's Messages API stand-in,
 * answering every request `pong` at once, as `instant`'s does. `GET /` on `PORT` answers its URL,
 * its process's CPU so far (µs) and the request bytes it received.
 */
async function main(): Promise<void> {
  const anthropic = await AnthropicStandIn.start({
    apiKey: setting('ANTHROPIC_API_KEY'),
    reply: () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['pong 1'] }] }),
  });
  const info = createServer((_req, res) => {
    const cpu = process.cpuUsage();
    // Only the last request is kept: the bench reads the bytes of each kind of call apart.
    const last = anthropic.requests.at(-1);
    anthropic.requests.length = 0;
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        url: anthropic.url,
        cpuMicros: cpu.user + cpu.system,
        lastBodyBytes: last === undefined ? 0 : Buffer.byteLength(JSON.stringify(last.body)),
      }),
    );
  });
  info.listen(Number(setting('PORT')), '127.0.0.1');
  process.once('SIGTERM', () => {
    info.close();
    void anthropic.close().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
