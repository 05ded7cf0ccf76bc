import { decodeRefName } from '../../core/git/ref-name';
import { parseRefUpdate } from '../../core/git/ref-updates';
import type { RefUpdate } from '../../core/model/git-gateway';
import { readPkt } from './pkt-line';

/** The command section of a `git-receive-pack` request: what the push wants to change. */
export interface ReceivePackCommands {
  updates: RefUpdate[];
  capabilities: string[];
  pushOptions: string[];
  /** Where the pack (if any) starts in the bytes read so far. */
  packOffset: number;
}

export type CommandParse =
  | { kind: 'complete'; commands: ReceivePackCommands }
  | { kind: 'incomplete' }
  | { kind: 'invalid'; reason: string };

/**
 * Parses `[shallow…] <old> <new> <ref>\0<caps>… flush [push options… flush] [pack]` from the
 * start of a request body. A body that is only a flush is git's `0000` probe: no updates.
 */
export function parseReceivePackCommands(body: Buffer): CommandParse {
  const updates: RefUpdate[] = [];
  let capabilities: string[] = [];
  let offset = 0;
  for (;;) {
    const read = readPkt(body, offset);
    if (read.kind === 'incomplete' || read.kind === 'invalid') return read;
    offset = read.next;
    if (read.kind === 'flush') break;
    const nul = read.payload.indexOf(0);
    // Ref names are bytes: read as UTF-8, losslessly, so a refusal can echo exactly what was sent.
    const line = decodeRefName(nul >= 0 ? read.payload.subarray(0, nul) : read.payload);
    if (line.startsWith('shallow ')) continue;
    if (line.startsWith('push-cert')) {
      return { kind: 'invalid', reason: 'signed pushes (push-cert) are not supported by the gateway' };
    }
    if (nul >= 0) {
      capabilities = read.payload
        .subarray(nul + 1)
        .toString('latin1')
        .trim()
        .split(' ')
        .filter((c) => c !== '');
    }
    const update = parseRefUpdate(line);
    if (update === null) return { kind: 'invalid', reason: `malformed ref update "${line.trim()}"` };
    updates.push(update);
  }
  const pushOptions: string[] = [];
  if (updates.length > 0 && capabilities.includes('push-options')) {
    for (;;) {
      const read = readPkt(body, offset);
      if (read.kind === 'incomplete' || read.kind === 'invalid') return read;
      offset = read.next;
      if (read.kind === 'flush') break;
      pushOptions.push(read.payload.toString('utf8').replace(/\n$/, ''));
    }
  }
  return { kind: 'complete', commands: { updates, capabilities, pushOptions, packOffset: offset } };
}

export const usesSideBand = (capabilities: readonly string[]): boolean =>
  capabilities.includes('side-band-64k') || capabilities.includes('side-band');
