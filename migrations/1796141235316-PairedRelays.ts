import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const tenantTable = (table: string) => [
  // A2: the same tenant isolation as every other workspace table.
  `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO summon_tenant`,
  `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
  `CREATE POLICY tenant_isolation ON ${table} USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

const UP = [
  // R1: each workspace's own Ed25519 key pair (PEM), made at its first pairing.
  `CREATE TABLE relay_keys (
    workspace_id uuid NOT NULL,
    public_key text NOT NULL,
    private_key text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_relay_keys PRIMARY KEY (workspace_id),
    CONSTRAINT fk_relay_keys_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE
  )`,
  ...tenantTable('relay_keys'),
  // R1: a one-time pairing offer: its secret stored hashed, the level it grants, used once.
  `CREATE TABLE relay_offers (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    secret_hash text NOT NULL,
    level text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_relay_offers PRIMARY KEY (id),
    CONSTRAINT fk_relay_offers_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT ck_relay_offers_level CHECK (level IN ('read', 'prompt', 'full'))
  )`,
  ...tenantTable('relay_offers'),
  // R1: a paired relay: its name, address and public key; the id the other side signs with.
  `CREATE TABLE relay_pairings (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    remote_name text NOT NULL,
    remote_url text,
    remote_public_key text NOT NULL,
    remote_pairing_id uuid,
    remote_grants text,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz,
    CONSTRAINT pk_relay_pairings PRIMARY KEY (id),
    CONSTRAINT fk_relay_pairings_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT ck_relay_pairings_remote_grants CHECK (remote_grants IN ('read', 'prompt', 'full'))
  )`,
  `CREATE UNIQUE INDEX uq_relay_pairings_active ON relay_pairings (workspace_id, lower(remote_name)) WHERE revoked_at IS NULL`,
  ...tenantTable('relay_pairings'),
  // R1: nonces seen within the timestamp window; a second request with one is a replay.
  `CREATE TABLE relay_nonces (
    pairing_id uuid NOT NULL,
    nonce text NOT NULL,
    workspace_id uuid NOT NULL,
    seen_at timestamptz NOT NULL,
    CONSTRAINT pk_relay_nonces PRIMARY KEY (pairing_id, nonce),
    CONSTRAINT fk_relay_nonces_pairing FOREIGN KEY (pairing_id) REFERENCES relay_pairings (id) ON DELETE CASCADE
  )`,
  'CREATE INDEX ix_relay_nonces_seen_at ON relay_nonces (seen_at)',
  ...tenantTable('relay_nonces'),
  // N15, R1: what the workspace file says: whether remote agents' prompts are accepted, and
  // which paired relays the workspace accepts at which level.
  `CREATE TABLE relay_settings (
    workspace_id uuid NOT NULL,
    accept_remote_agent_prompts boolean NOT NULL DEFAULT true,
    accepted jsonb NOT NULL DEFAULT '[]',
    CONSTRAINT pk_relay_settings PRIMARY KEY (workspace_id),
    CONSTRAINT fk_relay_settings_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE
  )`,
  ...tenantTable('relay_settings'),
  // R2, N3, N12: a note from a paired relay: the sending agent, its model, its session's
  // address there, the pairing, and the wake chain it carries (M20).
  'ALTER TABLE messages ADD COLUMN note_remote jsonb',
];

const DOWN = [
  'ALTER TABLE messages DROP COLUMN note_remote',
  'DROP TABLE relay_settings',
  'DROP TABLE relay_nonces',
  'DROP TABLE relay_pairings',
  'DROP TABLE relay_offers',
  'DROP TABLE relay_keys',
];

/** R1–R3: paired relays: keys, one-time offers, pairings, nonces, settings, remote notes. */
export class PairedRelays1796141235316 implements MigrationInterface {
  readonly name = 'PairedRelays1796141235316';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
