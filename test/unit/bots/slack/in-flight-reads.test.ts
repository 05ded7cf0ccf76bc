import { joinInFlight } from '../../../../src/bots/slack/outbound/in-flight-reads';

/** A read whose answers the test gives, one per call, in order. */
function controlledRead() {
  const calls: { key: string; settle: (value: string | Error) => void }[] = [];
  const read = (key: string) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ key, settle: (value) => (value instanceof Error ? reject(value) : resolve(value)) });
    });
  return { calls, read };
}

describe('joinInFlight (T3: a lookup under way is shared, nothing kept after)', () => {
  it('T3: callers asking while a read of the same key is under way share it; another key reads on its own', async () => {
    const { calls, read } = controlledRead();
    const owner = joinInFlight(read);
    const a = owner('C1');
    const b = owner('C1');
    const other = owner('C2');
    expect(calls.map((c) => c.key)).toEqual(['C1', 'C2']);
    calls[0]?.settle('acme');
    calls[1]?.settle('globex');
    expect(await Promise.all([a, b, other])).toEqual(['acme', 'acme', 'globex']);
  });

  it('P8: once it settled, the next call reads afresh (a new link applies at once)', async () => {
    const { calls, read } = controlledRead();
    const owner = joinInFlight(read);
    const first = owner('C1');
    calls[0]?.settle('before');
    expect(await first).toBe('before');
    const second = owner('C1');
    expect(calls).toHaveLength(2);
    calls[1]?.settle('after');
    expect(await second).toBe('after');
  });

  it('a failure reaches the callers that shared it, and the next call reads again', async () => {
    const { calls, read } = controlledRead();
    const owner = joinInFlight(read);
    const a = owner('C1');
    const b = owner('C1');
    calls[0]?.settle(new Error('database unavailable'));
    await expect(a).rejects.toThrow('database unavailable');
    await expect(b).rejects.toThrow('database unavailable');
    const again = owner('C1');
    expect(calls).toHaveLength(2);
    calls[1]?.settle('acme');
    expect(await again).toBe('acme');
  });
});
