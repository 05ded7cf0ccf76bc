/**
 * T3: a read by key that callers asking while it is under way share, instead of each sending
 * its own (a busy channel's turns all look up its owner for their card, session and stream).
 * Nothing is kept once it settles: the next call reads afresh, so a new link or member applies
 * as soon as it is committed (P8), and a failure reaches exactly the callers that shared it.
 */
export function joinInFlight<V>(read: (key: string) => Promise<V>): (key: string) => Promise<V> {
  const reading = new Map<string, Promise<V>>();
  return (key) => {
    const under = reading.get(key);
    if (under !== undefined) return under;
    const started = read(key).finally(() => reading.delete(key));
    reading.set(key, started);
    return started;
  };
}
