import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpOAuth } from '../../../src/adapters/mcp-oauth/mcp-oauth';
import { createLogger } from '../../../src/app/logger';
import { handleMcpOAuthCallback } from '../../../src/app/mcp-oauth-callback';
import type { Store } from '../../../src/core/ports/store';
import { ManualClock } from '../manual-clock';

/** E5: Summon's side of the flow for a test: `McpOAuth`, its callback route on a local port, its logs. */
export interface SummonOAuthSide {
  oauth: McpOAuth;
  clock: ManualClock;
  /** Every log line written, as pino wrote it (redaction applied). */
  logs: string[];
  publicUrl: string;
  close(): Promise<void>;
}

/**
 * E5: the callback route (`handleMcpOAuthCallback`, as src/app/server.ts mounts it) on its own
 * HTTP server, whose address is the public URL; the app's pino logger writing into `logs`.
 */
export async function startSummonOAuthSide(
  store: Store,
  options: { secretKey?: Buffer } = {},
): Promise<SummonOAuthSide> {
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => logs.push(line) } });
  const clock = new ManualClock();
  let oauth: McpOAuth | undefined;
  const http = createServer((request, response) => {
    if (oauth !== undefined && handleMcpOAuthCallback(request, response, oauth, logger)) return;
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const publicUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  oauth = new McpOAuth({
    store,
    clock,
    logger,
    settings: { secretKey: options.secretKey ?? randomBytes(32), publicUrl },
  });
  return {
    oauth,
    clock,
    logs,
    publicUrl,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

/**
 * E5: what a person's browser does with an authorization link: opens it (the test
 * authorization server approves at once and redirects), then follows the redirect to
 * Summon's callback. Redirects are followed by hand, so each hop is checked.
 */
export async function followAuthorizationLink(
  link: string,
): Promise<{ status: number; page: string; callback: string }> {
  const approval = await fetch(link, { redirect: 'manual' });
  await approval.body?.cancel();
  const callback = approval.headers.get('location');
  if (approval.status !== 302 || callback === null) {
    throw new Error(`the authorization server answered ${approval.status} without a redirect`);
  }
  const answer = await fetch(callback, { redirect: 'manual' });
  return { status: answer.status, page: await answer.text(), callback };
}
