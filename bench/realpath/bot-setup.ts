import Anthropic from '@anthropic-ai/sdk';

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
