import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { DEFAULT_MODEL } from '../../src/config/config';
import { baselineAnthropic, setting } from './bot-setup';

/**
 * The baseline bot, run as its own process (`bare-bot-process.ts` starts it): a bare Bolt app
 * on the HTTP receiver that answers each mention with one model call (the same Anthropic SDK,
 * streamed, as Summon's runner calls it) and one `chat.postMessage` in the mention's thread.
 * Bolt acks as soon as the listener is called (Slack's 3 s limit would refuse a bot that acked
 * after the model). No database, no queue, no status card: the least a Slack bot with a model
 * does per mention.
 */

async function main(): Promise<void> {
  const anthropic = baselineAnthropic();
  const receiver = new HTTPReceiver({
    signingSecret: setting('SLACK_SIGNING_SECRET'),
    endpoints: '/slack/events',
    logLevel: LogLevel.ERROR,
  });
  const app = new App({
    token: setting('SLACK_BOT_TOKEN'),
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: setting('SLACK_API_URL') },
  });
  app.event('app_mention', async ({ event, client }) => {
    const message = await anthropic.messages
      .stream({ model: DEFAULT_MODEL, max_tokens: 8192, messages: [{ role: 'user', content: event.text }] })
      .finalMessage();
    const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    await client.chat.postMessage({ channel: event.channel, thread_ts: event.ts, text });
  });
  await app.start(Number(setting('PORT')));
  process.once('SIGTERM', () => {
    void app.stop().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
