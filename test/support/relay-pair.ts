import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Store } from '../../src/core/ports/store';
import { waitFor } from './engine-harness';
import { runSummon } from './run-summon';
import { ServeProcess } from './serve-process';
import { BOT_USER, SIGNING_SECRET, TEAM } from './slack-delivery';
import { linkLocalChatToSlack } from './slack-linked-chat';
import { AnthropicStandIn, type Replier } from './stand-ins/anthropic-stand-in';
import { SlackWebApiStandIn } from './stand-ins/slack-web-api-stand-in';
import { makeTempDir } from './temp-dir';
import { openTestDatabase, type TestDatabase } from './test-database';

export { DANA } from './slack-linked-chat';

/** A free loopback port (so SUMMON_PUBLIC_URL is known before the server starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * One Summon deployment for the relay tests: the real `summon serve` in a child process, with
 * its own PostgreSQL database, its own Slack stand-in and its own Anthropic stand-in, named
 * `SUMMON_RELAY_NAME` and reachable at its `SUMMON_PUBLIC_URL` on loopback; `extraEnv` adds to
 * (or overrides) its environment, e.g. a low `SUMMON_RELAY_RATE_LIMIT`.
 */
export async function openRelaySide(name: string, reply: Replier, extraEnv: Record<string, string> = {}) {
  const slack = new SlackWebApiStandIn({ botUserId: BOT_USER, teamId: TEAM });
  const slackUrl = await slack.listen();
  const model = await AnthropicStandIn.start({ apiKey: `sk-ant-${name}`, reply });
  const db: TestDatabase = await openTestDatabase('postgres');
  const dataDir = await makeTempDir();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    DATABASE_URL: db.databaseUrl ?? '',
    SUMMON_DATA_DIR: dataDir.path,
    SUMMON_RELAY_NAME: name,
    SUMMON_PUBLIC_URL: url,
    SLACK_BOT_TOKEN: slack.token,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slackUrl,
    ANTHROPIC_API_KEY: `sk-ant-${name}`,
    ANTHROPIC_BASE_URL: model.url,
    SUMMON_SANDBOX: 'off',
    LOG_LEVEL: 'info',
    ...extraEnv,
  };
  const server = ServeProcess.start(['serve'], env);
  await server.waitForLine('summon is ready', 120_000);
  const store: Store = db.database.store;
  const workspaceId = await store.transaction(linkLocalChatToSlack);
  return {
    name,
    url,
    env,
    slack,
    model,
    store,
    workspaceId,
    server,
    /** `summon …` against this deployment's database and settings, in-process. */
    cli: (args: string[]) => runSummon(args, { env, cwd: dataDir.path }),
    runs: () =>
      store.inWorkspace(workspaceId, (tx) =>
        tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']),
      ),
    settle: () =>
      waitFor(async () => {
        const runs = await store.inWorkspace(workspaceId, (tx) =>
          tx.runs.listByStatus(['queued', 'running']),
        );
        return runs.length === 0;
      }, 120_000),
    close: async () => {
      await server.kill('SIGTERM');
      await model.close();
      await slack.close();
      await db.dispose();
      await dataDir.remove();
    },
  };
}

export type RelaySide = Awaited<ReturnType<typeof openRelaySide>>;
