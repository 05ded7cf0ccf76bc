import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { GitHubGitStandIn, git } from '../../test/support/stand-ins/github-git-stand-in';

/**
 * `npx tsx bench/gateway/gateway-bench.ts [megabytes]` (default 100): one commit of that many
 * random megabytes, pushed directly to the upstream stand-in (`git http-backend` behind
 * GitHub's token check) and through the gateway (rule `allow`) to the same upstream, in the same
 * run. Reports both times, their ratio, and the gateway process's peak RSS growth during its push.
 */
async function main() {
  const mb = Number(process.argv[2] ?? 100);
  const work = await mkdtemp(path.join(tmpdir(), 'summon-gateway-bench-'));
  const token = 'ghs_benchGatewayToken';
  const home = path.join(work, 'home');
  await mkdir(home, { recursive: true });
  const upstream = new GitHubGitStandIn(path.join(work, 'github'));
  await upstream.start();
  upstream.tokens.add(token);
  await upstream.createRepo('acme/direct', home);
  await upstream.createRepo('acme/bench', home);
  const gateway = spawn('npx', ['tsx', path.join(__dirname, 'gateway-process.ts')], {
    env: {
      ...process.env,
      WORK_DIR: path.join(work, 'gw'),
      REPO: 'acme/bench',
      UPSTREAM_URL: upstream.url,
      UPSTREAM_TOKEN: token,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: gateway.stdout })[Symbol.asyncIterator]();
  const nextJson = async () => JSON.parse(String((await lines.next()).value)) as Record<string, unknown>;
  try {
    const ready = (await nextJson()) as { url: string; env: Record<string, string> };
    const repo = path.join(work, 'repo');
    await git(['init', '-q', '-b', 'main', repo], home);
    await writeFile(path.join(repo, 'big.bin'), Buffer.alloc(0));
    const fill = spawn('sh', ['-c', `head -c ${mb * 1024 * 1024} /dev/urandom > big.bin`], { cwd: repo });
    await new Promise((resolve) => fill.on('close', resolve));
    await git(['add', 'big.bin'], home, repo);
    await git(['commit', '-q', '-m', `${mb} MB`], home, repo);

    const direct = Date.now();
    const header = `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
    const d = await git(['push', '-q', `${upstream.url}/acme/direct.git`, 'main'], home, repo, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: header,
    });
    const directMs = Date.now() - direct;
    if (d.code !== 0) throw new Error(`direct push failed: ${d.stderr}`);

    gateway.stdin.write('start\n');
    await nextJson();
    const through = Date.now();
    const g = await git(['push', '-q', ready.url, 'main'], home, repo, ready.env);
    const gatewayMs = Date.now() - through;
    if (g.code !== 0) throw new Error(`gateway push failed: ${g.stderr}`);
    gateway.stdin.write('stop\n');
    const { rssGrowth } = (await nextJson()) as { rssGrowth: number };
    gateway.stdin.write('quit\n');
    console.log(
      JSON.stringify(
        {
          megabytes: mb,
          directMs,
          gatewayMs,
          ratio: Number((gatewayMs / directMs).toFixed(2)),
          gatewayPeakRssGrowthMb: Number((rssGrowth / 1024 / 1024).toFixed(1)),
        },
        null,
        2,
      ),
    );
  } finally {
    gateway.kill('SIGTERM');
    await upstream.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`gateway bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
