import type { RemoteNoteOrigin } from '../model/relays/relay-records';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * R2: the stored remote part of a note, read defensively: a row written by hand or by another
 * version yields what can be recognised, or null when it names no pairing and no sender.
 */
export function toRemoteNoteOrigin(value: unknown): RemoteNoteOrigin | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const stored = value as Record<string, unknown>;
  const pairingId = text(stored.pairingId);
  const agentName = text(stored.agentName);
  if (pairingId === null || agentName === null) return null;
  return {
    pairingId,
    agentName,
    modelId: text(stored.modelId),
    sessionUrl: text(stored.sessionUrl),
    chain: Array.isArray(stored.chain) ? stored.chain.filter((c): c is string => typeof c === 'string') : [],
  };
}
