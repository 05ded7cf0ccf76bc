/** git's pkt-line framing: 4 hex digits of length (including themselves), then the payload. */
export const FLUSH = Buffer.from('0000');
/** Largest payload of one pkt-line (65520 minus the 4 length bytes). */
export const MAX_PAYLOAD = 65516;

export function pkt(payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  if (body.length > MAX_PAYLOAD) throw new Error(`pkt-line payload of ${body.length} bytes is too long`);
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body]);
}

/** A side-band packet: band 1 carries data, 2 progress (`remote: …`), 3 a fatal error. */
export function band(channel: 1 | 2 | 3, payload: string | Buffer): Buffer[] {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const packets: Buffer[] = [];
  // side-band-64k: at most 65515 data bytes after the band byte.
  for (let offset = 0; offset < body.length || packets.length === 0; offset += MAX_PAYLOAD - 1) {
    packets.push(
      pkt(Buffer.concat([Buffer.from([channel]), body.subarray(offset, offset + MAX_PAYLOAD - 1)])),
    );
  }
  return packets;
}

export type PktRead =
  | { kind: 'data'; payload: Buffer; next: number }
  | { kind: 'flush'; next: number }
  | { kind: 'incomplete' }
  | { kind: 'invalid'; reason: string };

/** Reads the pkt-line at `offset` of `buffer`. */
export function readPkt(buffer: Buffer, offset: number): PktRead {
  if (buffer.length < offset + 4) return { kind: 'incomplete' };
  const hex = buffer.toString('latin1', offset, offset + 4);
  if (!/^[0-9a-f]{4}$/i.test(hex)) return { kind: 'invalid', reason: `bad pkt-line length "${hex}"` };
  const length = Number.parseInt(hex, 16);
  if (length === 0) return { kind: 'flush', next: offset + 4 };
  if (length < 4) return { kind: 'invalid', reason: `reserved pkt-line length ${length}` };
  if (buffer.length < offset + length) return { kind: 'incomplete' };
  return { kind: 'data', payload: buffer.subarray(offset + 4, offset + length), next: offset + length };
}
