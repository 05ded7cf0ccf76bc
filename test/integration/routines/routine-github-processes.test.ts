import { FileWorkspaceDirectory } from '../../../src/adapters/workspace-directory/file-workspace-directory';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';
import { WorkspaceService } from '../../../src/core/workspace/workspace-service';
import { waitFor } from '../../support/engine-harness';
import { ServeProcess } from '../../support/serve-process';
import { BOT_USER, CHANNEL, SIGNING_SECRET, TEAM } from '../../support/slack-delivery';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { GitHubDeliverer, payloads } from '../../support/stand-ins/github/github-deliveries';
import { GitHubIssuesStandIn } from '../../support/stand-ins/github/github-issues-stand-in';
import { SlackWebApiStandIn } from '../../support/stand-ins/slack-web-api-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

jest.setTimeout(240_000);

const API_KEY = 'sk-ant-routines-github';
const WEBHOOK_SECRET = 'whsec-two-processes-0123456789';
const GITHUB_TOKEN = 'ghp_routinesTwoProcesses';

/**
 * W2: the same GitHub delivery reaching two `summon serve` processes (GitHub's redelivery to
 * another replica behind a load balancer) fires its routine once. The real CLI in two child
 * processes on one PostgreSQL database, each with its own in-process queue, Slack and GitHub
 * front ends against their stand-ins, the built-in Anthropic runner against its stand-in.
 */
describe('W2 one GitHub delivery, two processes', () => {
  let db: TestDatabase;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let slack: SlackWebApiStandIn;
  let slackUrl: string;
  let github: GitHubIssuesStandIn;
  let model: AnthropicStandIn;
  const processes: ServeProcess[] = [];

  beforeAll(async () => {
    slack = new SlackWebApiStandIn({ botUserId: BOT_USER, teamId: TEAM });
    slackUrl = await slack.listen();
    github = await new GitHubIssuesStandIn({ [GITHUB_TOKEN]: { login: 'summon-bot', bot: true } }, [
      'acme/api',
    ]).start();
    model = await AnthropicStandIn.start({
      apiKey: API_KEY,
      reply: () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['Notes drafted.'] }] }),
    });
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await model.close();
    await github.close();
    await slack.close();
    await db.dispose();
    await dataDir.remove();
  });

  it('W2 both receive it (a redelivery elsewhere); one firing, one thread, one turn', async () => {
    await new WorkspaceService(
      db.database.store,
      new FileWorkspaceDirectory(`${dataDir.path}/workspaces`),
      undefined,
      {
        github: true,
      },
    ).apply(
      parseWorkspaceFile(`
workspace: acme
slack: { teamId: ${TEAM} }
spaces:
  - name: ops
    participants: [engineer]
    channels: [{ slack: ${CHANNEL} }]
    repos: [acme/api]
    routines:
      - name: red
        agent: engineer
        prompt: Find why CI failed.
        github: { event: check_suite.completed, filters: { conclusion: failure } }
`),
    );
    const env = {
      PORT: '0',
      DATABASE_URL: db.databaseUrl ?? '',
      SUMMON_DATA_DIR: dataDir.path,
      SLACK_BOT_TOKEN: slack.token,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slackUrl,
      GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
      GITHUB_TOKEN,
      GITHUB_API_URL: github.url,
      ANTHROPIC_API_KEY: API_KEY,
      ANTHROPIC_BASE_URL: model.url,
      SUMMON_SANDBOX: 'off',
      LOG_LEVEL: 'info',
    };
    // One after the other: the first start creates the default workspace.
    for (const _ of [1, 2]) {
      const serve = ServeProcess.start(['serve'], env);
      processes.push(serve);
      await serve.waitForLine('summon is ready', 120_000);
    }
    const ports = await Promise.all(
      processes.map(
        async (p) => (JSON.parse(await p.waitForLine('summon is ready')) as { port: number }).port,
      ),
    );
    const payload = payloads.checkSuiteCompleted('acme/api', 'failure');
    const sent = await Promise.all(
      ports.map((port) =>
        new GitHubDeliverer(`http://127.0.0.1:${port}/github/webhooks`, WEBHOOK_SECRET).send(
          'check_suite',
          payload,
          {
            deliveryId: 'suite-4711',
          },
        ),
      ),
    );
    expect(sent.map((s) => s.status)).toEqual([202, 202]);
    // Each process says what the delivery did there: fired it, or found it fired already.
    for (const serve of processes)
      await waitFor(
        async () =>
          serve.lines.some(
            (l) => l.includes('"routine fired"') || l.includes('already fired this routine'),
          ) || null,
        120_000,
      );
    const fired = processes.filter((p) => p.lines.some((l) => l.includes('"routine fired"')));
    expect(fired).toHaveLength(1);
    // The turn ran to its end in the process that fired it (its outcome is the agent's, not the
    // routine's: with PORT=0 the space's repository cannot be cloned through the git gateway).
    const runs = await waitFor(async () => {
      const all = await db.database.store.transaction((tx) =>
        tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']),
      );
      return all.length > 0 && all.every((r) => r.status === 'succeeded' || r.status === 'failed')
        ? all
        : null;
    }, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // a second turn would show by now
    expect(runs).toHaveLength(1);
    const heads = slack.messages.filter((m) => m.channel === CHANNEL && m.threadTs === null);
    expect(heads.map((m) => [m.username, m.text])).toEqual([
      [
        'engineer',
        "Routine red · on GitHub check_suite.completed in any of the space's repos when conclusion is failure",
      ],
    ]);
    const firings = await db.database.store.transaction(async (tx) => {
      const workspace = await tx.workspaces.findBySlug('acme');
      const [routine] = await tx.routines.listForWorkspace(workspace?.id ?? '');
      return tx.routines.history(routine?.id ?? '', 10);
    });
    expect(firings.map((f) => [f.deliveryId, f.outcome])).toEqual([['suite-4711', 'started']]);
    expect(firings[0]?.runId).toBe(runs[0]?.id);
  });
});
