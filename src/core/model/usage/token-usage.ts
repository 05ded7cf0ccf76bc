/**
 * O3: the tokens one model call (or a whole run) used, as the APIs report them: input and
 * output, plus prompt-cache reads and writes (Anthropic `cache_read_input_tokens` /
 * `cache_creation_input_tokens`, OpenAI `prompt_tokens_details.cached_tokens`). `inputTokens`
 * never includes the cached tokens, so the four add up to what the model processed.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
