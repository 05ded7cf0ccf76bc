import { PrometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics';
import { InboxRouter } from '../../../src/core/ingest/inbox-router';
import { silentLogger } from '../../../src/core/ports/logger';
import { parsePrometheusText, sampleValue } from '../../support/scrape-metrics';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

describe('T4, P6: the inbox counts events received, acknowledged and de-duplicated (/metrics)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase('pglite');
  });
  afterAll(() => db.dispose());

  it('a delivery and its retry: two received and acknowledged, one de-duplicated', async () => {
    const metrics = new PrometheusMetrics();
    const router = new InboxRouter(
      {
        store: db.database.store,
        clock: { now: () => new Date() },
        logger: silentLogger,
        metrics,
        route: async () => ({ outcome: { kind: 'duplicate' as const } }),
        after: async (_message, routed) => routed.outcome,
      },
      {},
    );
    const entry = {
      platform: 'slack' as const,
      eventId: 'Ev-metrics-1',
      threadKey: 'C1:1',
      channelKey: 'C1',
      payload: { text: 'hi' },
      receivedAt: new Date(),
    };
    expect(await router.ingest(entry)).toEqual({ stored: true });
    // Slack retries a delivery it thinks was lost: stored once, acknowledged again.
    expect(await router.ingest(entry)).toEqual({ stored: false });
    const f = parsePrometheusText(await metrics.text());
    const events = 'summon_inbound_events_total';
    expect(sampleValue(f, events, { platform: 'slack', stage: 'received' })).toBe(2);
    expect(sampleValue(f, events, { platform: 'slack', stage: 'acknowledged' })).toBe(2);
    expect(sampleValue(f, events, { platform: 'slack', stage: 'deduplicated' })).toBe(1);
    await router.close();
  });
});
