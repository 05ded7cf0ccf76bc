import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { runLocalChat } from '../../../src/app/local-chat';
import { startServer } from '../../../src/app/server';
import { ensureLocalChat } from '../../../src/core/workspace/local-chat';
import { waitFor } from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { GitHubGitStandIn, git } from '../../support/stand-ins/github-git-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

const REPO = 'acme/widgets';
const GITHUB_TOKEN = 'ghs_serverRunsGatewayOnlyToken4242';
const ANTHROPIC_KEY = 'sk-ant-api03-SERVER-RUNS-9d1c';

describe('M9/G3/G5 `summon start` as wired: a turn in a space with repos works through the server’s gateway', () => {
  it('the default engine syncs the checkout, gives bash the run’s git environment, offers open_pull_request, and the push lands', async () => {
    const tmp = await makeTempDir();
    const home = path.join(tmp.path, 'home');
    await mkdir(home, { recursive: true });
    const upstream = new GitHubGitStandIn(path.join(tmp.path, 'github'));
    await upstream.start();
    upstream.tokens.add(GITHUB_TOKEN);
    const bare = await upstream.createRepo(REPO, home);
    await upstream.seed(REPO, {
      home,
      dir: path.join(tmp.path, 'seed'),
      token: GITHUB_TOKEN,
      files: { 'README.md': 'widgets\n' },
      branches: ['main'],
    });

    const anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    anthropic.script(
      {
        kind: 'stream',
        blocks: [
          {
            type: 'tool_use',
            name: 'bash',
            input: {
              command:
                'cd repos/widgets && echo served > served.txt && git add served.txt && git -c user.name=E -c user.email=e@example.com commit -q -m "Served" && git push origin HEAD:main 2>&1',
            },
          },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Pushed through the server.'] }] },
    );
    // The turn through the gateway, not making the database (`cli.test.ts`): it starts migrated.
    await seedMigratedDataDir(path.join(tmp.path, 'data'));
    // PORT 0: any free port; the runs are given the port the server was bound to (G3).
    const server = await startServer(
      {
        PORT: '0',
        SUMMON_DATA_DIR: path.join(tmp.path, 'data'),
        GITHUB_TOKEN,
        GITHUB_GIT_URL: upstream.url,
        ANTHROPIC_API_KEY: ANTHROPIC_KEY,
        ANTHROPIC_BASE_URL: anthropic.url,
        SUMMON_DEFAULT_MODEL: 'claude-sonnet-4-6',
        LOG_LEVEL: 'silent',
      },
      tmp.path,
    );
    try {
      const { store } = server.runtime;
      // The local chat's workspace and space, as `summon chat` creates them, with a repository.
      const local = await store.transaction((tx) => ensureLocalChat(tx));
      await store.transaction(async (tx) => {
        await tx.spaces.update(local.space.id, { repos: [REPO] });
        await tx.guardrails.upsert(local.workspace.id, {
          scopeKind: 'workspace',
          scopeId: null,
          action: 'push_to_remote',
          decision: 'allow',
        });
      });
      const input = new PassThrough();
      const output = new PassThrough();
      let screen = '';
      output.on('data', (chunk: Buffer) => {
        screen += chunk.toString();
      });
      const done = runLocalChat(server.runtime, { input, output });
      input.write('@engineer push it\n');
      await waitFor(async () => screen.includes('Pushed through the server.'), 30_000);
      input.write('/quit\n');
      await done;

      const head = (await git(['--git-dir', bare, 'rev-parse', 'main'], home)).stdout.trim();
      expect((await git(['--git-dir', bare, 'show', `${head}:served.txt`], home)).stdout).toBe('served\n');
      const offered =
        (anthropic.requests[0]?.body as { tools?: { name: string }[] } | undefined)?.tools ?? [];
      expect(offered.map((t) => t.name)).toContain('open_pull_request');
      const result = JSON.stringify(anthropic.requests[1]?.body ?? null);
      expect(result).toContain('Exit code 0.');
      expect(result).not.toContain(GITHUB_TOKEN);
    } finally {
      await server.close();
      await upstream.close();
      await anthropic.close();
      await tmp.remove();
    }
  }, 90_000);
});
