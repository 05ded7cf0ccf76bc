/** Slack's window for a request timestamp; Bolt refuses older ones, Summon also refuses later ones. */
export const TIMESTAMP_WINDOW_MS = 5 * 60 * 1000;

/**
 * A signed request whose `X-Slack-Request-Timestamp` lies more than five minutes in the future
 * is refused: Bolt only refuses stale ones, and a future one could be replayed for longer.
 * Returns the reason to refuse, or null.
 */
export function futureTimestampRefusal(header: string | string[] | undefined, nowMs: number): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return null; // Bolt refuses a missing timestamp itself.
  const seconds = Number(value);
  if (!Number.isFinite(seconds)) return 'the request timestamp is not a number';
  return seconds * 1000 - nowMs > TIMESTAMP_WINDOW_MS ? 'the request timestamp is in the future' : null;
}
