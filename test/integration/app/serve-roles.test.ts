import { createRedisClient } from '../../../src/adapters/redis/redis-connection-options';
import { type RunningServer, startServer } from '../../../src/app/server';
import { waitFor } from '../../support/engine-harness';
import { ServeProcess } from '../../support/serve-process';
import { BOT_USER, CHANNEL, deliver, eventFrom, SIGNING_SECRET, TEAM } from '../../support/slack-delivery';
import { linkLocalChatToSlack } from '../../support/slack-linked-chat';
import { AnthropicStandIn, type RecordedRequest } from '../../support/stand-ins/anthropic-stand-in';
import { SlackWebApiStandIn } from '../../support/stand-ins/slack-web-api-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

jest.setTimeout(240_000);

// A Redis database of its own: the roles share the server's default queue name.
const REDIS_URL = 'redis://127.0.0.1:6379/11';
const API_KEY = 'sk-ant-roles-test';

type Message = { role: string; content: unknown };
const messagesOf = (body: unknown) => ((body as { messages?: Message[] }).messages ?? []) as Message[];
const taskOf = (body: unknown) => /task-\d+/.exec(JSON.stringify(messagesOf(body)[0] ?? ''))?.[0] ?? '';
const afterTool = (body: unknown) => {
  const last = messagesOf(body).at(-1)?.content;
  return Array.isArray(last) && last.some((b: { type?: string }) => b.type === 'tool_result');
};

/**
 * `summon serve --role web|worker`: one web process (HTTP, Slack over HTTP, the inbox) and
 * worker processes (turns, recovery) share one PostgreSQL and one Redis; the workers post to
 * Slack through the Web API without listening. The real CLI in child processes, the real Bolt
 * app, the built-in Anthropic runner against its stand-in.
 */
describe('summon serve --role web|worker', () => {
  let slack: SlackWebApiStandIn;
  let model: AnthropicStandIn;
  let db: TestDatabase;
  let dataDir: { path: string; remove(): Promise<void> };
  let web: RunningServer | null = null;
  const workers: ServeProcess[] = [];
  let env: Record<string, string>;
  /** Tasks whose first model call after the tool was held open (the turn "in the middle"). */
  const held = new Set<string>();

  beforeEach(async () => {
    const redis = createRedisClient(REDIS_URL);
    await redis.flushdb();
    await redis.quit();
    slack = new SlackWebApiStandIn({ botUserId: BOT_USER, teamId: TEAM });
    const slackUrl = await slack.listen();
    // Each task: list_files (a tool boundary, so a checkpoint), then a model call held open the
    // first time (the worker is "mid-turn"), answered the next time (the turn resumed elsewhere).
    model = await AnthropicStandIn.start({
      apiKey: API_KEY,
      reply: (body) => {
        const task = taskOf(body);
        if (!afterTool(body))
          return {
            kind: 'stream',
            blocks: [{ type: 'tool_use', name: 'list_files', input: {} }],
            stopReason: 'tool_use',
          };
        if (!held.has(task)) {
          held.add(task);
          return { kind: 'stream', blocks: [{ type: 'text', chunks: ['working'] }], hold: true };
        }
        return { kind: 'stream', blocks: [{ type: 'text', chunks: [`answer ${task}`] }] };
      },
    });
    db = await openTestDatabase('postgres');
    dataDir = await makeTempDir();
    env = {
      PORT: '0',
      DATABASE_URL: db.databaseUrl ?? '',
      REDIS_URL,
      SUMMON_DATA_DIR: dataDir.path,
      SLACK_BOT_TOKEN: slack.token,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slackUrl,
      SUMMON_SANDBOX: 'off',
      LOG_LEVEL: 'info',
    };
  });

  afterEach(async () => {
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    workers.length = 0;
    await web?.close();
    web = null;
    held.clear();
    await model.close();
    await slack.close();
    await db.dispose();
    await dataDir.remove();
  });

  it('refuses web and worker without REDIS_URL, with the reason', async () => {
    const { REDIS_URL: _none, ...withoutRedis } = env;
    await expect(startServer({ ...withoutRedis, SUMMON_ROLE: 'web' }, process.cwd())).rejects.toThrow(
      /SUMMON_ROLE=web needs REDIS_URL: .*in-process and cannot be shared/,
    );
    const worker = ServeProcess.start(['serve', '--role', 'worker'], withoutRedis);
    expect(await worker.ended()).toMatchObject({ code: 1 });
    expect(worker.output()).toMatch(/SUMMON_ROLE=worker needs REDIS_URL/);
  });

  it('two workers and one web process share the turns; a worker killed mid-turn loses nothing', async () => {
    web = await startServer({ ...env, SUMMON_ROLE: 'web' }, process.cwd(), { logToFile: true });
    expect(web.chat?.platforms).toEqual(['slack']);
    await web.runtime.store.transaction(linkLocalChatToSlack);
    // One turn at a time per worker; a silent turn is taken for dead after 2 s (A12).
    const workerEnv = {
      ...env,
      ANTHROPIC_API_KEY: API_KEY,
      ANTHROPIC_BASE_URL: model.url,
      SUMMON_CONCURRENCY: '1',
      SUMMON_DEAD_AFTER_MS: '2000',
    };
    const start = () => {
      const worker = ServeProcess.start(['serve', '--role', 'worker'], workerEnv);
      workers.push(worker);
      return worker.waitForLine('summon is ready').then(() => worker);
    };
    const [a, b] = await Promise.all([start(), start()]);
    // A worker serves no front-end route: Slack's deliveries are the web process's.
    const readyLine = JSON.parse(await a.waitForLine('summon is ready')) as { port: number; role: string };
    expect(readyLine.role).toBe('worker');
    expect(
      (await deliver(`http://127.0.0.1:${readyLine.port}/slack/events`, eventFrom('app-mention', {}))).status,
    ).toBe(404);

    const url = `http://127.0.0.1:${web.port}/slack/events`;
    const threads = new Map<string, string>();
    for (const task of ['task-1', 'task-2']) {
      const ts = slack.addPersonMessage(CHANNEL, null);
      threads.set(task, ts);
      const mention = eventFrom('app-mention', { ts, text: `<@${BOT_USER}> @engineer ${task}` }, `Ev${task}`);
      expect((await deliver(url, mention)).status).toBe(200);
    }
    // Both turns are mid-turn at once: with one turn per worker and none in the web process,
    // that is one in each worker.
    const heldCall = (task: string) =>
      model.requests.find((r) => afterTool(r.body) && taskOf(r.body) === task) as RecordedRequest;
    await waitFor(async () => held.size === 2, 120_000);

    // SIGKILL one worker mid-turn: exactly its held model call is cut.
    await a.kill('SIGKILL');
    const cut = await Promise.race(
      ['task-1', 'task-2'].map((task) => heldCall(task).closedEarly.then(() => task)),
    );
    const other = cut === 'task-1' ? 'task-2' : 'task-1';
    // A third worker takes the killed turn up from its checkpoint (T2) and answers it.
    const c = await start();
    const answers = (task: string) =>
      slack
        .inThread(CHANNEL, threads.get(task) ?? '')
        .filter((m) => m.blocks === null && m.text.includes(`answer ${task}`));
    await waitFor(async () => answers(cut).length === 1, 120_000);
    // The other turn is still with the live worker; stopping it hands the turn back (its held
    // call ends only now), and the third worker answers that one too.
    await b.kill('SIGTERM');
    await heldCall(other).closedEarly;
    await waitFor(async () => answers(other).length === 1, 120_000);

    const store = web.runtime.store;
    const runs = await waitFor(async () => {
      const all = await store.transaction((tx) =>
        tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']),
      );
      return all.every((r) => r.status !== 'queued' && r.status !== 'running') ? all : null;
    });
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    // A12: neither was taken for dead, though one worker died under it.
    expect(runs.filter((r) => r.liveness === 'dead')).toEqual([]);
    for (const task of ['task-1', 'task-2']) expect(answers(task)).toHaveLength(1);
    expect(slack.messages.some((m) => /worker stopped/i.test(m.text))).toBe(false);
    await c.kill('SIGTERM');
  });
});
