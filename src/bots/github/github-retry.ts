/** The waits before each retry of a call GitHub could not take, unless told otherwise. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 20_000];

/**
 * P21: a GitHub call retried while GitHub could not take it (5xx, 429, no answer) after each of
 * `delays`; a refusal (4xx) is final, and the last error reaches the caller.
 */
export async function retryingGitHub<T>(call: () => Promise<T>, delays: readonly number[]): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      const transient = typeof status !== 'number' || status >= 500 || status === 429;
      const delay = delays[attempt];
      if (!transient || delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
