import { startServer } from '../../../src/app/server';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

describe('G3 the gateway on Summon’s HTTP server', () => {
  it('is mounted at /git/ when a GitHub credential is configured, and asks for a run credential', async () => {
    const dir = await makeTempDir();
    // The gateway's mount, not making the database: it starts migrated.
    await seedMigratedDataDir(dir.path);
    const server = await startServer(
      {
        PORT: '0',
        SUMMON_DATA_DIR: dir.path,
        GITHUB_TOKEN: 'ghs_serverOnly',
        GITHUB_GIT_URL: 'http://127.0.0.1:9',
        LOG_LEVEL: 'silent',
      },
      dir.path,
    );
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const anonymous = await fetch(`${base}/git/acme/widgets.git/info/refs?service=git-upload-pack`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Summon git gateway"');
      const forged = await fetch(`${base}/git/acme/widgets.git/info/refs?service=git-receive-pack`, {
        headers: { authorization: `Basic ${Buffer.from('x:sgw_forged').toString('base64')}` },
      });
      expect(forged.status).toBe(403);
      const dumb = await fetch(`${base}/git/acme/widgets.git/HEAD`);
      expect(dumb.status).toBe(404);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
      await dir.remove();
    }
  });

  it('is absent without a GitHub credential', async () => {
    const dir = await makeTempDir();
    await seedMigratedDataDir(dir.path);
    const server = await startServer({ PORT: '0', SUMMON_DATA_DIR: dir.path, LOG_LEVEL: 'silent' }, dir.path);
    try {
      const res = await fetch(
        `http://127.0.0.1:${server.port}/git/acme/widgets.git/info/refs?service=git-upload-pack`,
      );
      expect(res.status).toBe(404);
    } finally {
      await server.close();
      await dir.remove();
    }
  });
});
