import { baselineAnswer, baselineAnthropic, baselineApp, setting } from './bot-setup';

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
  const app = baselineApp();
  app.event('app_mention', async ({ event, client }) => {
    const text = await baselineAnswer(anthropic, event.text);
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
