import { BOT_USER, SIGNING_SECRET, TEAM } from './slack-delivery';
import { linkLocalChatToSlack } from './slack-linked-chat';
import { AnthropicStandIn } from './stand-ins/anthropic-stand-in';
import { SlackWebApiStandIn } from './stand-ins/slack-web-api-stand-in';
import { makeTempDir } from './temp-dir';
import { openTestDatabase, type TestDatabase } from './test-database';

/** What a `summon serve` test runs against: Slack's and Anthropic's stand-ins, a database, a data folder. */
export interface ServeFixture {
  slack: SlackWebApiStandIn;
  model: AnthropicStandIn;
  db: TestDatabase;
  /** `summon serve`'s environment for these (Slack over HTTP, the built-in Anthropic runner, no sandbox). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A fresh fixture, the default workspace linked to the tests' Slack team and channel (dana its
 * owner); the model answers every request `answer`.
 */
export async function openServeFixture(apiKey: string, answer: string): Promise<ServeFixture> {
  const slack = new SlackWebApiStandIn({ botUserId: BOT_USER, teamId: TEAM });
  const slackUrl = await slack.listen();
  const model = await AnthropicStandIn.start({
    apiKey,
    reply: () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: [answer] }] }),
  });
  const db = await openTestDatabase('postgres');
  await db.database.store.transaction(linkLocalChatToSlack);
  const dataDir = await makeTempDir();
  return {
    slack,
    model,
    db,
    env: {
      PORT: '0',
      DATABASE_URL: db.databaseUrl ?? '',
      SUMMON_DATA_DIR: dataDir.path,
      SLACK_BOT_TOKEN: slack.token,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slackUrl,
      ANTHROPIC_API_KEY: apiKey,
      ANTHROPIC_BASE_URL: model.url,
      SUMMON_SANDBOX: 'off',
      LOG_LEVEL: 'silent',
    },
    async close() {
      slack.up();
      await model.close();
      await slack.close();
      await db.dispose();
      await dataDir.remove();
    },
  };
}
