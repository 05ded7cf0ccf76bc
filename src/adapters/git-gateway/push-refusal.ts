import type { RefUpdate } from '../../core/model/git-gateway';
import { band, FLUSH, pkt } from './pkt-line';

/**
 * G5: the protocol's own refusal. Report-status says `ng <ref> <reason>` for every update (git
 * prints `! [remote rejected] <ref> (<reason>)`); with side-band the explanation comes first as
 * progress lines, which git prints as `remote: …`.
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
    ...updates.map((u) => pkt(`ng ${u.ref} ${oneLine}\n`)),
    FLUSH,
  ]);
  if (!(capabilities.includes('side-band-64k') || capabilities.includes('side-band'))) return status;
  return Buffer.concat([...progress(explanation), ...band(1, status), FLUSH]);
}

/** Progress lines (band 2), one packet each. */
export function progress(lines: readonly string[]): Buffer[] {
  return lines.flatMap((line) => band(2, `${line}\n`));
}
