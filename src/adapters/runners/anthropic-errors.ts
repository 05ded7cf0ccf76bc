import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';

/**
 * A readable sentence for a failed Messages API call: the status, the API's error type and
 * its own message. Headers and request options are never read, and the api key is masked
 * in case a server echoed it back.
 */
export function describeAnthropicError(error: unknown, apiKey: string, retries = 0): string {
  const sentence = describe(error);
  // 429 rate limited, 529 overloaded: the SDK already retried with backoff; say so.
  const busy = error instanceof APIError && (error.status === 429 || error.status === 529);
  const tried = busy && retries > 0 ? ` (gave up after ${retries + 1} attempts with backoff)` : '';
  return redact(sentence + tried, apiKey);
}

function describe(error: unknown): string {
  if (error instanceof APIConnectionTimeoutError) {
    return 'The Anthropic API did not answer in time (request timed out).';
  }
  if (error instanceof APIConnectionError) {
    return 'Could not reach the Anthropic API (connection failed); check ANTHROPIC_BASE_URL and the network.';
  }
  if (error instanceof APIError) {
    const status = typeof error.status === 'number' ? ` ${error.status}` : '';
    const kind = error.type !== null ? ` (${error.type})` : '';
    const detail = error.apiMessage ?? 'no error message was given';
    return `The Anthropic API answered with error${status}${kind}: ${detail}`;
  }
  if (error instanceof Error) return `The Anthropic API call failed: ${error.message}`;
  return 'The Anthropic API call failed for an unknown reason.';
}

function redact(text: string, apiKey: string): string {
  return apiKey.length > 0 ? text.split(apiKey).join('[redacted]') : text;
}
