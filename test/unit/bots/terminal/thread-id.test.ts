import fc from 'fast-check';
import { decodeTerminalThreadId, encodeTerminalThreadId } from '../../../../src/bots/terminal/thread-id';

describe('terminal thread ids', () => {
  it('are terminal:{channel}:{n}', () => {
    expect(encodeTerminalThreadId({ channel: 'general', number: 3 })).toBe('terminal:general:3');
    expect(decodeTerminalThreadId('terminal:general:3')).toEqual({ channel: 'general', number: 3 });
  });

  it('round-trip for every channel name and thread number', () => {
    const channel = fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,20}$/);
    const number = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
    fc.assert(
      fc.property(channel, number, (c, n) => {
        const id = encodeTerminalThreadId({ channel: c, number: n });
        expect(decodeTerminalThreadId(id)).toEqual({ channel: c, number: n });
        expect(encodeTerminalThreadId({ channel: c, number: n })).toBe(id);
      }),
    );
  });

  it('another platform’s id or a malformed one decodes to null', () => {
    for (const id of [
      'slack:C1:1712345678.000100',
      'terminal:general',
      'terminal:General:1',
      'terminal:general:-1',
    ]) {
      expect(decodeTerminalThreadId(id)).toBeNull();
    }
    expect(decodeTerminalThreadId(`terminal:general:${'9'.repeat(20)}`)).toBeNull();
  });

  it('refuses to encode what would not decode', () => {
    expect(() => encodeTerminalThreadId({ channel: 'general', number: 0 })).toThrow(RangeError);
    expect(() => encodeTerminalThreadId({ channel: 'general', number: 1.5 })).toThrow(RangeError);
    expect(() => encodeTerminalThreadId({ channel: 'a:b', number: 1 })).toThrow(RangeError);
  });

  it('keeps a chat session apart from earlier ones when it has a session id', () => {
    const id = encodeTerminalThreadId({ channel: 'general', number: 2, session: 'lk3x9' });
    expect(id).toBe('terminal:general:lk3x9.2');
    expect(decodeTerminalThreadId(id)).toEqual({ channel: 'general', number: 2, session: 'lk3x9' });
    expect(() => encodeTerminalThreadId({ channel: 'general', number: 2, session: 'A.B' })).toThrow(
      RangeError,
    );
  });
});
