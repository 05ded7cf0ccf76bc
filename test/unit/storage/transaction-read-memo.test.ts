import { writesDirectory } from '../../../src/storage/store/transaction-read-memo';

/** T4: which statements make a transaction forget its remembered directory reads. */
describe('T4: statements that may write the directory', () => {
  it.each([
    'INSERT INTO "space_participants"("space_id", "kind") VALUES ($1, $2)',
    'UPDATE "members" SET "nickname" = $1 WHERE "id" = $2',
    'DELETE FROM channel_bindings WHERE id = $1',
    `WITH found AS (UPDATE spaces SET dedicated = true WHERE id = '1' RETURNING 1) SELECT 1`,
    'insert into public.agents (name) values ($1)',
    'INSERT INTO workspaces DEFAULT VALUES',
    'UPDATE platform_bindings SET external_id = $1',
  ])('%s', (sql) => {
    expect(writesDirectory(sql)).toBe(true);
  });

  it.each([
    'SELECT * FROM members WHERE workspace_id = $1',
    'INSERT INTO messages (id, text) VALUES ($1, $2)',
    `INSERT INTO platform_channel_cursors (platform) VALUES ('slack')
       ON CONFLICT ON CONSTRAINT uq DO UPDATE SET last_message_id = excluded.last_message_id`,
    'SELECT id FROM inbound_inbox i WHERE i.routed_at IS NULL FOR UPDATE OF i SKIP LOCKED',
    'UPDATE runs SET status = $1 WHERE id = $2',
    'SELECT * FROM spaces FOR NO KEY UPDATE',
  ])('not: %s', (sql) => {
    expect(writesDirectory(sql)).toBe(false);
  });
});
