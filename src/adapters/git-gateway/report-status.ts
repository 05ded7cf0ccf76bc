import { decodeRefName } from '../../core/git/ref-name';
import { readPkt } from './pkt-line';

/** The most of upstream's answer to a push kept for reading its report (progress lines come first). */
export const REPORT_LIMIT = 1024 * 1024;

/**
 * The refs upstream's `report-status` says it updated (`ok <ref>`; an `unpack` error updates
 * none), or null when the answer holds no report (the client asked for none, or it was cut).
 * With side-band the report is the data band's; progress and errors are the other bands'.
 */
export function acceptedRefs(result: Buffer, sideBand: boolean): Set<string> | null {
  const data = sideBand ? dataBand(result) : result;
  const refs = new Set<string>();
  let report = false;
  for (let offset = 0; ; ) {
    const read = readPkt(data, offset);
    if (read.kind === 'incomplete' || read.kind === 'invalid') break;
    offset = read.next;
    if (read.kind === 'flush') continue;
    const line = decodeRefName(read.payload).replace(/\n$/, '');
    if (line.startsWith('unpack ')) {
      report = true;
      if (line !== 'unpack ok') return new Set();
    } else if (line.startsWith('ok ')) refs.add(line.slice(3));
  }
  return report ? refs : null;
}

/** The data band's bytes (band 1) of a side-band answer. */
function dataBand(result: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let offset = 0; ; ) {
    const read = readPkt(result, offset);
    if (read.kind === 'incomplete' || read.kind === 'invalid') break;
    offset = read.next;
    if (read.kind === 'data' && read.payload[0] === 1) parts.push(read.payload.subarray(1));
  }
  return Buffer.concat(parts);
}
