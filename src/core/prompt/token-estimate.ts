/**
 * A deliberately simple token estimate: one token per four characters (UTF-16 code units),
 * rounded up. It is close for English prose and code and needs no tokenizer; the history
 * budget leaves slack for its error.
 */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** A4: an agent without a `contextSize` override is assumed to have this window. */
export const DEFAULT_CONTEXT_TOKENS = 200_000;

/**
 * The recent conversation may fill at most this share of the context window, less the rest
 * of the prompt; the remainder is the run's working room (tool results, files, the reply).
 */
export const HISTORY_SHARE = 0.5;
