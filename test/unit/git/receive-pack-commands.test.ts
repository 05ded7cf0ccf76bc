import fc from 'fast-check';
import { band, FLUSH, pkt, readPkt } from '../../../src/adapters/git-gateway/pkt-line';
import { pushRefusal } from '../../../src/adapters/git-gateway/push-refusal';
import { parseReceivePackCommands } from '../../../src/adapters/git-gateway/receive-pack-commands';
import { ZERO_ID } from '../../../src/core/git/ref-updates';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const PACK = Buffer.from('PACK\0\0\0\x02');

describe('receive-pack command section', () => {
  it('reads updates, capabilities, push options and where the pack starts', () => {
    const body = Buffer.concat([
      pkt(`${A} ${B} refs/heads/main\0report-status side-band-64k push-options agent=git/2.39\n`),
      pkt(`${ZERO_ID} ${B} refs/tags/v1\n`),
      FLUSH,
      pkt('ci.skip\n'),
      FLUSH,
      PACK,
    ]);
    const parsed = parseReceivePackCommands(body);
    if (parsed.kind !== 'complete') throw new Error(parsed.kind);
    expect(parsed.commands.updates).toEqual([
      { oldId: A, newId: B, ref: 'refs/heads/main' },
      { oldId: ZERO_ID, newId: B, ref: 'refs/tags/v1' },
    ]);
    expect(parsed.commands.capabilities).toContain('side-band-64k');
    expect(parsed.commands.pushOptions).toEqual(['ci.skip']);
    expect(body.subarray(parsed.commands.packOffset).equals(PACK)).toBe(true);
  });

  it('the 0000 probe has no updates; a delete has no pack', () => {
    expect(parseReceivePackCommands(Buffer.from('0000'))).toMatchObject({
      kind: 'complete',
      commands: { updates: [] },
    });
    const del = Buffer.concat([pkt(`${A} ${ZERO_ID} refs/heads/old\0report-status\n`), FLUSH]);
    const parsed = parseReceivePackCommands(del);
    expect(parsed).toMatchObject({ kind: 'complete', commands: { packOffset: del.length } });
  });

  it('asks for more bytes at every cut of a valid body, and refuses malformed lines', () => {
    const body = Buffer.concat([pkt(`${A} ${B} refs/heads/main\0report-status\n`), FLUSH, PACK]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: body.length - PACK.length - 1 }), (cut) => {
        expect(parseReceivePackCommands(body.subarray(0, cut)).kind).toBe('incomplete');
      }),
    );
    expect(parseReceivePackCommands(Buffer.concat([pkt('nonsense\n'), FLUSH])).kind).toBe('invalid');
    expect(parseReceivePackCommands(Buffer.from('zzzz')).kind).toBe('invalid');
    expect(parseReceivePackCommands(Buffer.concat([pkt(`${A} ${B} main\n`), FLUSH])).kind).toBe('invalid');
  });

  it('G5 reads a ref name as UTF-8 and the `ng` line echoes the exact bytes the client sent', () => {
    for (const name of [
      Buffer.from('refs/heads/dény', 'utf8'),
      Buffer.from('refs/heads/d\xe9ny', 'latin1'),
    ]) {
      const line = Buffer.concat([
        Buffer.from(`${A} ${B} `),
        name,
        Buffer.from('\0report-status side-band-64k\n'),
      ]);
      const parsed = parseReceivePackCommands(Buffer.concat([pkt(line), FLUSH]));
      if (parsed.kind !== 'complete') throw new Error(parsed.kind);
      const out = pushRefusal(parsed.commands.updates, [], 'denied', []);
      expect(out.includes(Buffer.concat([Buffer.from('ng '), name, Buffer.from(' denied\n')]))).toBe(true);
    }
    const utf8 = Buffer.concat([pkt(`${A} ${B} refs/heads/dény\0report-status\n`), FLUSH]);
    expect(parseReceivePackCommands(utf8)).toMatchObject({
      kind: 'complete',
      commands: { updates: [{ ref: 'refs/heads/dény' }], capabilities: ['report-status'] },
    });
  });

  it('pkt-lines round-trip; side-band packets stay within 65520 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 2000 }), (bytes) => {
        const read = readPkt(pkt(Buffer.from(bytes)), 0);
        expect(read.kind === 'data' && Buffer.from(bytes).equals(read.payload)).toBe(true);
      }),
    );
    const big = band(2, Buffer.alloc(200_000, 1));
    expect(big.every((p) => p.length <= 65520)).toBe(true);
  });

  it('G5 a refusal is report-status `ng` for every ref, inside band 1, after remote: lines', () => {
    const out = pushRefusal([{ oldId: A, newId: B, ref: 'refs/heads/main' }], ['side-band-64k'], 'no', [
      'why',
    ]);
    expect(out.toString('latin1')).toContain('\x02why\n');
    expect(out.toString('latin1')).toContain('ng refs/heads/main no\n');
    const plain = pushRefusal([{ oldId: A, newId: B, ref: 'refs/heads/main' }], [], 'no', ['why']);
    expect(plain.toString('latin1')).toBe('000eunpack ok\n001ang refs/heads/main no\n0000');
  });
});
