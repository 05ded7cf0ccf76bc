import { PassThrough } from 'node:stream';
import { runLocalChat } from '../../../src/app/local-chat';
import { type RunningServer, startServer } from '../../../src/app/server';
import { waitFor } from '../../support/engine-harness';
import { sampleValue, scrapeMetrics } from '../../support/scrape-metrics';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

/** A local chat session on the server's runtime, as `summon start` in a terminal wires it. */
function openChat(server: RunningServer) {
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = '';
  output.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
  });
  const done = runLocalChat(server.runtime, { input, output });
  return {
    type: (line: string) => input.write(`${line}\n`),
    screen: () => screen,
    quit: async () => {
      input.write('/quit\n');
      await done;
    },
  };
}

describe('/metrics (Prometheus text through prom-client)', () => {
  it('after a real turn in the local chat, scraped over HTTP and parsed: events, turns, model latency and the queue', async () => {
    const dataDir = await makeTempDir();
    // What is counted, not making the database: it starts migrated.
    await seedMigratedDataDir(dataDir.path);
    const key = 'sk-ant-metrics-test';
    const standIn = await AnthropicStandIn.start({
      apiKey: key,
      reply: () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['All green.'] }] }),
    });
    const server = await startServer(
      {
        SUMMON_DATA_DIR: dataDir.path,
        PORT: '0',
        LOG_LEVEL: 'silent',
        ANTHROPIC_API_KEY: key,
        ANTHROPIC_BASE_URL: standIn.url,
      },
      dataDir.path,
      { chatFrontEnds: false },
    );
    const base = `http://127.0.0.1:${server.port}`;
    try {
      const before = await scrapeMetrics(base);
      expect(sampleValue(before, 'summon_turns_finished_total', { status: 'succeeded' })).toBe(0);

      const chat = openChat(server);
      chat.type('@engineer is the build green?');
      await waitFor(async () => chat.screen().includes('[1] engineer: All green.'));
      // The run is marked succeeded after the reply is shown.
      await waitFor(
        async () =>
          sampleValue(await scrapeMetrics(base), 'summon_turns_finished_total', { status: 'succeeded' }) > 0,
      );
      const families = await scrapeMetrics(base);
      await chat.quit();

      expect(
        sampleValue(families, 'summon_inbound_events_total', { platform: 'terminal', stage: 'received' }),
      ).toBe(1);
      expect(
        sampleValue(families, 'summon_turns_finished_total', { status: 'succeeded', liveness: 'ok' }),
      ).toBe(1);
      expect(families.get('summon_model_latency_seconds')?.type).toBe('histogram');
      expect(
        sampleValue(families, 'summon_model_latency_seconds_count', { agent: 'engineer', outcome: 'final' }),
      ).toBe(1);
      // O3: the tokens the model stand-in reported for the turn, like the real API's `usage`.
      expect(
        sampleValue(families, 'summon_model_tokens_total', { agent: 'engineer', kind: 'input' }),
      ).toBeGreaterThan(0);
      expect(
        sampleValue(families, 'summon_model_tokens_total', { agent: 'engineer', kind: 'output' }),
      ).toBeGreaterThan(0);
      // Levels read at scrape time: nothing waits once the turn is done.
      expect(families.get('summon_queue_depth')?.type).toBe('gauge');
      expect(sampleValue(families, 'summon_queue_depth')).toBe(0);
      expect(sampleValue(families, 'summon_turns_waiting')).toBe(0);
      // Every series the product names is exposed, with its help text.
      for (const name of [
        'summon_inbound_events_total',
        'summon_turn_wakeups_total',
        'summon_turns_finished_total',
        'summon_turn_liveness_changes_total',
        'summon_queue_depth',
        'summon_turns_waiting',
        'summon_turns_active',
        'summon_outbox_backlog',
        'summon_outbox_retries_total',
        'summon_model_latency_seconds',
        'summon_model_tokens_total',
        'summon_gateway_pushes_total',
      ]) {
        expect(families.get(name)?.help).toEqual(expect.any(String));
      }
      // prom-client's process metrics come along.
      expect(sampleValue(families, 'summon_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    } finally {
      await server.close();
      await standIn.close();
      await dataDir.remove();
    }
  });
});
