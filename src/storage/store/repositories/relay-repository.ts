import type { EntityManager } from 'typeorm';
import type { RelayLevel } from '../../../core/model/relays/relay-level';
import {
  DEFAULT_RELAY_SETTINGS,
  type RelayOfferRecord,
  type RelayPairingRecord,
  type RelaySettings,
} from '../../../core/model/relays/relay-records';
import type { RelayRepository } from '../../../core/ports/relay-store';
import { isRelayLevel } from '../../../core/relays/relay-level';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';

interface PairingRow {
  id: string;
  workspace_id: string;
  remote_name: string;
  remote_url: string | null;
  remote_public_key: string;
  remote_pairing_id: string | null;
  remote_grants: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

interface OfferRow {
  id: string;
  workspace_id: string;
  secret_hash: string;
  level: string;
  expires_at: Date;
  used_at: Date | null;
}

const levelOf = (value: string | null): RelayLevel | null => (isRelayLevel(value) ? value : null);

const toPairing = (row: PairingRow): RelayPairingRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  remoteName: row.remote_name,
  remoteUrl: row.remote_url,
  remotePublicKey: row.remote_public_key,
  remotePairingId: row.remote_pairing_id,
  remoteGrants: levelOf(row.remote_grants),
  createdAt: new Date(row.created_at),
  revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
});

const toOffer = (row: OfferRow): RelayOfferRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  secretHash: row.secret_hash,
  level: levelOf(row.level) ?? 'read',
  expiresAt: new Date(row.expires_at),
  usedAt: row.used_at === null ? null : new Date(row.used_at),
});

/** A stored settings row read defensively: anything unexpected is left out, never a crash. */
const toSettings = (row: { accept_remote_agent_prompts: boolean; accepted: unknown }): RelaySettings => ({
  acceptRemoteAgentPrompts: row.accept_remote_agent_prompts,
  accepted: (Array.isArray(row.accepted) ? row.accepted : []).flatMap((entry: unknown) => {
    const e = entry as { relay?: unknown; level?: unknown };
    return typeof e.relay === 'string' && isRelayLevel(e.level) ? [{ relay: e.relay, level: e.level }] : [];
  }),
});

const PAIRING_COLUMNS =
  'id, workspace_id, remote_name, remote_url, remote_public_key, remote_pairing_id, remote_grants, created_at, revoked_at';

export const relayRepository = (manager: EntityManager): RelayRepository => {
  const q = <R extends object>(sql: string, params: unknown[] = []) => queryRecords<R>(manager, sql, params);
  return {
    async keyPair(workspaceId, create) {
      const [found] = await q<{ public_key: string; private_key: string }>(
        'SELECT public_key, private_key FROM relay_keys WHERE workspace_id = $1',
        [workspaceId],
      );
      if (found) return { publicKey: found.public_key, privateKey: found.private_key };
      const made = create();
      await q(
        'INSERT INTO relay_keys (workspace_id, public_key, private_key) VALUES ($1, $2, $3) ON CONFLICT (workspace_id) DO NOTHING',
        [workspaceId, made.publicKey, made.privateKey],
      );
      const [stored] = await q<{ public_key: string; private_key: string }>(
        'SELECT public_key, private_key FROM relay_keys WHERE workspace_id = $1',
        [workspaceId],
      );
      return stored ? { publicKey: stored.public_key, privateKey: stored.private_key } : made;
    },
    async insertOffer(workspaceId, fields) {
      const [row] = await q<OfferRow>(
        `INSERT INTO relay_offers (workspace_id, secret_hash, level, expires_at) VALUES ($1, $2, $3, $4)
         RETURNING id, workspace_id, secret_hash, level, expires_at, used_at`,
        [workspaceId, fields.secretHash, fields.level, fields.expiresAt],
      );
      if (row === undefined) throw new Error('the offer was not stored');
      return toOffer(row);
    },
    async findOffer(id) {
      if (!isUuid(id)) return null;
      const [row] = await q<OfferRow>(
        'SELECT id, workspace_id, secret_hash, level, expires_at, used_at FROM relay_offers WHERE id = $1',
        [id],
      );
      return row ? toOffer(row) : null;
    },
    async useOffer(id, at) {
      if (!isUuid(id)) return false;
      const rows = await q(
        'UPDATE relay_offers SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id',
        [id, at],
      );
      return rows.length > 0;
    },
    async insertPairing(workspaceId, fields) {
      const [row] = await q<PairingRow>(
        `INSERT INTO relay_pairings (workspace_id, remote_name, remote_url, remote_public_key, remote_pairing_id, remote_grants)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${PAIRING_COLUMNS}`,
        [
          workspaceId,
          fields.remoteName,
          fields.remoteUrl,
          fields.remotePublicKey,
          fields.remotePairingId,
          fields.remoteGrants,
        ],
      );
      if (row === undefined) throw new Error('the pairing was not stored');
      return toPairing(row);
    },
    async completePairing(id, remotePairingId, remoteGrants) {
      if (!isUuid(id)) return;
      await q('UPDATE relay_pairings SET remote_pairing_id = $2, remote_grants = $3 WHERE id = $1', [
        id,
        remotePairingId,
        remoteGrants,
      ]);
    },
    async findPairing(id) {
      if (!isUuid(id)) return null;
      const [row] = await q<PairingRow>(`SELECT ${PAIRING_COLUMNS} FROM relay_pairings WHERE id = $1`, [id]);
      return row ? toPairing(row) : null;
    },
    async findActiveByName(workspaceId, remoteName) {
      const [row] = await q<PairingRow>(
        `SELECT ${PAIRING_COLUMNS} FROM relay_pairings
          WHERE workspace_id = $1 AND lower(remote_name) = lower($2) AND revoked_at IS NULL`,
        [workspaceId, remoteName],
      );
      return row ? toPairing(row) : null;
    },
    async listPairings(workspaceId) {
      const rows = await q<PairingRow>(
        `SELECT ${PAIRING_COLUMNS} FROM relay_pairings WHERE workspace_id = $1 ORDER BY created_at, id`,
        [workspaceId],
      );
      return rows.map(toPairing);
    },
    async revoke(id, at) {
      if (!isUuid(id)) return;
      await q('UPDATE relay_pairings SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, at]);
    },
    async useNonce(workspaceId, pairingId, nonce, at, forgetBefore) {
      await q('DELETE FROM relay_nonces WHERE pairing_id = $1 AND seen_at < $2', [pairingId, forgetBefore]);
      const rows = await q(
        `INSERT INTO relay_nonces (pairing_id, nonce, workspace_id, seen_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (pairing_id, nonce) DO NOTHING RETURNING nonce`,
        [pairingId, nonce, workspaceId, at],
      );
      return rows.length > 0;
    },
    async recentSessions(workspaceId, limit) {
      return q<{ title: string; space: string }>(
        `SELECT c.title, s.name AS space FROM conversations c JOIN spaces s ON s.id = c.space_id
          WHERE c.workspace_id = $1 ORDER BY c.created_at DESC, c.id LIMIT $2`,
        [workspaceId, limit],
      );
    },
    async settings(workspaceId) {
      const [row] = await q<{ accept_remote_agent_prompts: boolean; accepted: unknown }>(
        'SELECT accept_remote_agent_prompts, accepted FROM relay_settings WHERE workspace_id = $1',
        [workspaceId],
      );
      return row ? toSettings(row) : { ...DEFAULT_RELAY_SETTINGS, accepted: [] };
    },
    async setSettings(workspaceId, settings) {
      await q(
        `INSERT INTO relay_settings (workspace_id, accept_remote_agent_prompts, accepted) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT (workspace_id) DO UPDATE
            SET accept_remote_agent_prompts = EXCLUDED.accept_remote_agent_prompts, accepted = EXCLUDED.accepted`,
        [workspaceId, settings.acceptRemoteAgentPrompts, JSON.stringify(settings.accepted)],
      );
    },
  };
};
