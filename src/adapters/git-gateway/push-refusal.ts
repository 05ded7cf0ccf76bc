import { encodeRefName } from '../../core/git/ref-name';
import type { RefUpdate } from '../../core/model/git-gateway';
import { band, FLUSH, pkt } from './pkt-line';

/**
 * G5: the protocol's own refusal. Report-status says `ng <ref> <reason>` for every update (git
 * prints `! [remote rejected] <ref> (<reason>)`); with side-band the explanation comes first as
 * progress lines, which git prints as `remote: …` (UTF-8, like the ref names in them).
 */
export function pushRefusal(
  updates: readonly RefUpdate[],
  capabilities: readonly string[],
  reason: string,
  explanation: readonly string[],
): Buffer {
  const oneLine = reason.replace(/[\r\n]+/g, ' ').slice(0, 200);
  const status = Buffer.concat([
    pkt('unpack ok\n'),
    // The exact bytes of the ref the client sent: git matches its report lines byte for byte.
    ...updates.map((u) =>
      pkt(Buffer.concat([Buffer.from('ng '), encodeRefName(u.ref), Buffer.from(` ${oneLine}\n`)])),
    ),
    FLUSH,
  ]);
  if (!(capabilities.includes('side-band-64k') || capabilities.includes('side-band'))) return status;
  return Buffer.concat([...progress(explanation), ...band(1, status), FLUSH]);
}

/** Progress lines (band 2), one packet each. */
export function progress(lines: readonly string[]): Buffer[] {
  return lines.flatMap((line) => band(2, `${line}\n`));
}
