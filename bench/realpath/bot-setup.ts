import Anthropic from '@anthropic-ai/sdk';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { DEFAULT_MODEL } from '../../src/config/config';

/** A baseline bot's setting from its environment (the bench hands each child an exact one). */
export const setting = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is required`);
  return value;
};

/**
 * The baselines' model client: the same Anthropic SDK Summon's runner uses, with the documented
 * `x-api-key` header as Summon's runner sends it (the SDK would send a bearer), no retries.
 */
export function baselineAnthropic(): Anthropic {
  const apiKey = setting('ANTHROPIC_API_KEY');
  return new Anthropic({
    apiKey,
    baseURL: setting('ANTHROPIC_BASE_URL'),
    defaultHeaders: { 'x-api-key': apiKey, Authorization: null },
    maxRetries: 0,
  });
}

/**
 * The baselines' Bolt app on the HTTP receiver. `processBeforeResponse`: the ack waits for the
 * listener (the durable floor's inbox write, T4); without it Bolt acks as the listener is called.
 */
export function baselineApp(processBeforeResponse = false): App {
  const receiver = new HTTPReceiver({
    signingSecret: setting('SLACK_SIGNING_SECRET'),
    endpoints: '/slack/events',
    processBeforeResponse,
    logLevel: LogLevel.ERROR,
  });
  return new App({
    token: setting('SLACK_BOT_TOKEN'),
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: setting('SLACK_API_URL') },
  });
}

/** One model call, streamed as Summon's runner streams it; its text. */
export async function baselineAnswer(anthropic: Anthropic, prompt: string): Promise<string> {
  const message = await anthropic.messages
    .stream({ model: DEFAULT_MODEL, max_tokens: 8192, messages: [{ role: 'user', content: prompt }] })
    .finalMessage();
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
