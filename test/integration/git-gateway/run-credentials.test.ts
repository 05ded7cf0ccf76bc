import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { StaticTokenAuth } from '../../../src/adapters/git-gateway/upstream';
import { createLogger } from '../../../src/app/logger';
import { ENGINE_SETUPS } from '../../support/engine-harness';
import { git } from '../../support/stand-ins/github-git-stand-in';
import { GATEWAY_TOKEN, type GatewayFixture, openGatewayFixture, REPO } from './gateway-fixture';

const setup = ENGINE_SETUPS[0];

describe('G3 per-run gateway credentials', () => {
  let f: GatewayFixture;
  afterEach(() => f.close());

  it('the upstream stand-in refuses what GitHub refuses: no token, or a wrong one', async () => {
    f = await openGatewayFixture(setup);
    const url = `${f.upstream.url}/${REPO}.git`;
    const none = await git(['ls-remote', url], f.home);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/Authentication failed|could not read Username/);
    const wrong = `${f.upstream.url.replace('http://', 'http://x-access-token:ghs_wrong@')}/${REPO}.git`;
    expect((await git(['ls-remote', wrong], f.home)).code).not.toBe(0);
  });

  it('a gateway whose GitHub credential is refused upstream answers 502: the client is never asked for one', async () => {
    f = await openGatewayFixture(setup, {}, { auth: async () => new StaticTokenAuth('ghs_revoked') });
    await f.setRule('allow');
    await f.commit('README.md', 'x\n');
    const pushed = await f.startPush(['origin', 'main']);
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toMatch(/502/);
    expect(pushed.stderr).not.toMatch(/Username|Password/);
    expect(f.upstream.seen.every((s) => s.status === 401)).toBe(true);
  });

  it('refuses an expired credential', async () => {
    f = await openGatewayFixture(setup, {}, { credentialTtlMs: 1 });
    await f.setRule('allow');
    await f.commit('README.md', 'x\n');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const expired = await f.startPush(['origin', 'main']);
    expect(expired.code).not.toBe(0);
    expect(expired.stderr).toMatch(/returned error: 403/);
    expect(f.upstream.seen).toEqual([]);
  });

  it('refuses a run that has ended, and a repository that is not the space’s', async () => {
    f = await openGatewayFixture(setup);
    await f.setRule('allow');
    await f.commit('README.md', 'x\n');
    const other = await f.inWork(['push', f.runEnv.remoteUrl('acme/secret'), 'main']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/403/);
    f.release();
    await f.h.settled();
    const ended = await f.startPush(['origin', 'main']);
    expect(ended.code).not.toBe(0);
    expect(ended.stderr).toMatch(/returned error: 403/);
    expect(f.upstream.seen).toEqual([]);
  });

  it('no GitHub credential in the run’s environment, .git/config, files, process arguments, logs or chat', async () => {
    const logged = new PassThrough();
    let logText = '';
    logged.on('data', (chunk: Buffer) => {
      logText += chunk.toString();
    });
    f = await openGatewayFixture(
      setup,
      {},
      { logger: createLogger({ level: 'debug', destination: logged }) },
    );
    await f.setRule('ask');
    await f.commit('README.md', 'x\n');

    // The run's git push, waiting on its approval: read its process tree's argv and environment.
    const child = spawn('git', ['push', 'origin', 'main'], {
      cwd: f.work,
      env: { PATH: process.env.PATH ?? '', HOME: f.home, GIT_CONFIG_NOSYSTEM: '1', ...f.runEnv.env },
    });
    const output: string[] = [];
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    const card = await f.approvalCard();
    const processes = await processTree(child.pid ?? -1);
    expect(processes.length).toBeGreaterThanOrEqual(2); // git push and git-remote-http
    for (const p of processes) {
      expect(p.cmdline).not.toContain(GATEWAY_TOKEN);
      expect(p.environ).not.toContain(GATEWAY_TOKEN);
      expect(p.environ).not.toMatch(/ghs_|GITHUB_TOKEN|GITHUB_APP_PRIVATE_KEY/);
      expect(p.cmdline).not.toMatch(/sgw_/); // not even the per-run credential is in argv
    }
    if (card.kind !== 'posted') throw new Error('no card');
    await f.h.type('/thread 1');
    await f.h.type(`/approve ${card.cardNumber}`);
    await new Promise<void>((resolve) => child.on('close', () => resolve()));

    // The environment holds only the per-run gateway credential.
    const env = JSON.stringify(f.runEnv.env);
    expect(env).not.toContain(GATEWAY_TOKEN);
    expect(env).toMatch(/Authorization: Basic /);
    // Files: .git/config and every file of the working tree hold no credential at all.
    const config = await readFile(path.join(f.work, '.git', 'config'), 'utf8');
    expect(config).toContain('/git/acme/widgets.git');
    expect(config).not.toMatch(/sgw_|ghs_|Authorization|extraHeader/i);
    for (const file of await filesUnder(f.work)) {
      const text = await readFile(file, 'latin1');
      expect(text).not.toContain(GATEWAY_TOKEN);
    }
    // Logs and chat.
    expect(logText).toContain('push received');
    expect(logText).not.toContain(GATEWAY_TOKEN);
    expect(logText).not.toMatch(/sgw_/);
    expect(f.h.screen()).not.toContain(GATEWAY_TOKEN);
    expect(JSON.stringify(f.h.thread(1))).not.toMatch(/ghs_|sgw_/);
    expect(output.join('')).not.toContain(GATEWAY_TOKEN);
    // The gateway did use its credential upstream.
    expect(f.upstream.seen.some((s) => s.token === GATEWAY_TOKEN && s.url.endsWith('git-receive-pack'))).toBe(
      true,
    );
  });
});

async function processTree(root: number): Promise<{ pid: number; cmdline: string; environ: string }[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const all: { pid: number; ppid: number }[] = [];
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      all.push({ pid: Number(entry), ppid });
    }
    const tree = new Set([root]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const p of all) {
        if (tree.has(p.ppid) && !tree.has(p.pid)) {
          tree.add(p.pid);
          grew = true;
        }
      }
    }
    const found = await Promise.all(
      [...tree].map(async (pid) => ({
        pid,
        cmdline: (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' '),
        environ: (await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '')).replaceAll('\0', '\n'),
      })),
    );
    if (found.length >= 2 || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}
