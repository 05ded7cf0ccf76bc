import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LauncherStatus } from '../adapters/sandbox/process-launcher';
import { checkReadiness } from './readiness';
import type { Runtime } from './runtime';

/**
 * The operator's endpoints on Summon's HTTP server: `/healthz` (the process answers),
 * `/readyz` (database, migrations and queue: 200, or 503 naming what is not ready) and
 * `/metrics` (Prometheus text from prom-client). False when the request is none of them.
 */
export function handleOperations(
  request: IncomingMessage,
  response: ServerResponse,
  runtime: Pick<Runtime, 'database' | 'config' | 'metrics' | 'logger'>,
  sandbox: LauncherStatus,
): boolean {
  if (request.method !== 'GET') return false;
  const path = (request.url ?? '').split('?')[0];
  if (path === '/healthz') {
    json(response, 200, { status: 'ok', database: runtime.database.kind, sandbox: sandbox.mode });
    return true;
  }
  if (path === '/readyz') {
    void checkReadiness(runtime).then(
      (readiness) => {
        const { ready, ...parts } = readiness;
        json(response, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', ...parts });
      },
      (error: unknown) => json(response, 503, { status: 'not ready', problems: [String(error)] }),
    );
    return true;
  }
  if (path === '/metrics') {
    void runtime.metrics.text().then(
      (text) => {
        response.writeHead(200, { 'content-type': runtime.metrics.contentType });
        response.end(text);
      },
      (error: unknown) => {
        runtime.logger.warn({ err: String(error) }, 'metrics could not be collected');
        json(response, 500, { error: 'metrics could not be collected' });
      },
    );
    return true;
  }
  return false;
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
