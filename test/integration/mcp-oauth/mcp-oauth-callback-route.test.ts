import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { McpOAuth } from '../../../src/adapters/mcp-oauth/mcp-oauth';
import { startServer } from '../../../src/app/server';
import { systemClock } from '../../../src/core/ports/clock';
import { silentLogger } from '../../../src/core/ports/logger';
import {
  type ProtectedMcpServer,
  startProtectedMcpServer,
} from '../../support/mcp-oauth/protected-mcp-server';
import { followAuthorizationLink } from '../../support/mcp-oauth/summon-callback-server';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

/** A port free now, for a server whose public URL must be known before it starts. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** E5: the callback as `summon serve` mounts it (src/app/server.ts), on the embedded database. */
describe('summon serve: /mcp/oauth/callback', () => {
  let remote: ProtectedMcpServer;

  beforeAll(async () => {
    remote = await startProtectedMcpServer();
  });
  afterAll(() => remote.close());

  it('E5 completes a link made with the server’s key and answers a bad state with 400 and a sentence', async () => {
    const dataDir = await makeTempDir();
    await seedMigratedDataDir(dataDir.path);
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const key = randomBytes(32);
    const server = await startServer(
      {
        SUMMON_DATA_DIR: dataDir.path,
        PORT: String(port),
        LOG_LEVEL: 'silent',
        SUMMON_PUBLIC_URL: publicUrl,
        SUMMON_SECRET_KEY: key.toString('hex'),
      },
      dataDir.path,
      { chatFrontEnds: false },
    );
    try {
      const store = server.runtime.store;
      const workspace = await store.transaction((tx) => tx.workspaces.findBySlug('default'));
      const oauth = new McpOAuth({
        store,
        clock: systemClock,
        logger: silentLogger,
        settings: { secretKey: key, publicUrl },
      });
      const shared = {
        name: 'notion',
        transport: 'http' as const,
        url: remote.url,
        headers: {},
        auth: { kind: 'oauth' as const, tokens: 'workspace' as const },
      };
      const context = { workspaceId: workspace?.id ?? '' };
      const done = await followAuthorizationLink(await oauth.authorizationLink(context, shared));
      expect(done).toMatchObject({
        status: 200,
        page: expect.stringContaining('Summon can now use notion; you can close this tab.'),
      });
      expect(await oauth.authorized(context, shared)).toBe(true);

      const bad = await fetch(`${publicUrl}/mcp/oauth/callback?code=x&state=y`);
      expect(bad.status).toBe(400);
      expect(bad.headers.get('cache-control')).toBe('no-store');
      expect(await bad.text()).toContain('This authorization is not one Summon started: ask for a new link.');
    } finally {
      await server.close();
      await dataDir.remove();
    }
  });
});
