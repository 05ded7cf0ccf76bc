/** Runner adapters an agent can use (A4, A10). `null` in storage means the built-in loop. */
export const ADAPTER_IDS = ['builtin', 'openai', 'command'] as const;
export type AdapterId = (typeof ADAPTER_IDS)[number];

/** A4: the silence watchdog is 1–240 minutes. */
export const SILENCE_TIMEOUT_RANGE = { min: 1, max: 240 } as const;
export const DEFAULT_SILENCE_TIMEOUT_MINUTES = 15;
