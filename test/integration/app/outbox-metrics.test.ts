import { PrometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics';
import { DeliveryError, type PlatformSender } from '../../../src/core/outbox/delivery-error';
import { OutboxDeliverer } from '../../../src/core/outbox/outbox-deliverer';
import { silentLogger } from '../../../src/core/ports/logger';
import { parsePrometheusText, sampleValue } from '../../support/scrape-metrics';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

/** A platform that answers 429, then a 5xx, then takes the call (what Slack and Discord do under load). */
class BusyPlatform implements PlatformSender {
  readonly answers: string[] = [];
  private calls = 0;
  async send(): Promise<string | null> {
    this.calls += 1;
    if (this.calls === 1) throw new DeliveryError('ratelimited', { kind: 'after', ms: 5 });
    if (this.calls === 2) throw new DeliveryError('503', { kind: 'backoff' });
    this.answers.push(`ts-${this.calls}`);
    return `ts-${this.calls}`;
  }
}

describe('P7: the outbox counts its backlog, retries and 429s per platform (/metrics)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase('pglite');
  });
  afterAll(() => db.dispose());

  it('a call retried after a 429 and a 5xx: one rate-limited retry, one error retry, no backlog once sent', async () => {
    const store = db.database.store;
    const workspace = await store.transaction((tx) =>
      tx.workspaces.insert({ slug: 'metrics', name: 'Metrics' }),
    );
    const metrics = new PrometheusMetrics();
    const sender = new BusyPlatform();
    const deliverer = new OutboxDeliverer({
      store,
      platform: 'slack',
      sender,
      logger: silentLogger,
      metrics,
      backoff: { baseMs: 1, maxMs: 5, giveUpMs: 60_000 },
    });
    const delivered = deliverer.deliver({ workspaceId: workspace.id, lane: 'C1:1' }, 'post', { text: 'hi' });
    // While it is on its way, it is backlog.
    expect(
      sampleValue(parsePrometheusText(await metrics.text()), 'summon_outbox_backlog', { platform: 'slack' }),
    ).toBe(1);
    expect(await delivered).toBe('ts-3');
    const f = parsePrometheusText(await metrics.text());
    const retries = 'summon_outbox_retries_total';
    expect(sampleValue(f, retries, { platform: 'slack', reason: 'rate_limited' })).toBe(1);
    expect(sampleValue(f, retries, { platform: 'slack', reason: 'error' })).toBe(1);
    expect(sampleValue(f, 'summon_outbox_backlog', { platform: 'slack' })).toBe(0);
  });
});
