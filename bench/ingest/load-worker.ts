/**
 * The load generator of the ingest benchmark, on its own thread (its own event loop), so the
 * server under test never delays the clock that times it. Open loop: event i is due at
 * i / rate seconds; its ack latency runs from when it was due (so a server that falls behind
 * shows its queue) to the end of the response.
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

export interface LoadPlan {
  url: string;
  signingSecret: string;
  ratePerSecond: number;
  count: number;
  /** The event envelope; `{{ts}}` and `{{n}}` in its JSON are replaced per event. */
  template: string;
  /** Makes each event's ts unique across runs on one database. */
  tsBase: number;
}

export interface LoadResult {
  latenciesMs: number[];
  statuses: Record<string, number>;
  /** From the first event due to the last ack. */
  elapsedMs: number;
}

const plan = workerData as LoadPlan;
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

function send(body: string): Promise<number> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', plan.signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return new Promise((resolve) => {
    const req = request(
      plan.url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-slack-signature': signature,
          'x-slack-request-timestamp': String(timestamp),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(-1));
    req.end(body);
  });
}

async function run(): Promise<LoadResult> {
  const latenciesMs: number[] = new Array(plan.count);
  const statuses: Record<string, number> = {};
  const start = performance.now();
  let lastAck = start;
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < plan.count; i += 1) {
    const due = start + (i * 1000) / plan.ratePerSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const ts = `${plan.tsBase + i}.000100`;
    const body = plan.template.replaceAll('{{ts}}', ts).replaceAll('{{n}}', String(plan.tsBase + i));
    inFlight.push(
      send(body).then((status) => {
        const end = performance.now();
        latenciesMs[i] = end - due;
        lastAck = Math.max(lastAck, end);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { latenciesMs, statuses, elapsedMs: lastAck - start };
}

run().then(
  (result) => parentPort?.postMessage(result),
  (error: unknown) => parentPort?.postMessage({ error: String(error) }),
);
