import { Agent, request } from 'node:http';

/**
 * The baseline: `GET /metrics` (Prometheus' scrape of the same Summon) sent open loop at
 * `perSecond` for `seconds` over keep-alive connections; each scrape's latency from when it was
 * due to its body's end (ms).
 */
export async function scrapeMetrics(url: string, perSecond: number, seconds: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const count = Math.max(1, Math.round(perSecond * seconds));
  const start = process.hrtime.bigint();
  const latencies: Promise<number>[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const due = start + BigInt(Math.round((i / perSecond) * 1e9));
      const wait = Number(due - process.hrtime.bigint()) / 1e6;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      latencies.push(scrapeOnce(url, agent).then(() => Number(process.hrtime.bigint() - due) / 1e6));
    }
    return await Promise.all(latencies);
  } finally {
    agent.destroy();
  }
}

function scrapeOnce(url: string, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`/metrics answered ${res.statusCode}`));
      res.resume();
      res.on('end', () => resolve());
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
