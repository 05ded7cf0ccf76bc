import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rows of these tables hold several ON DELETE SET NULL references. When one delete cascades
 * along several paths (a workspace, or an agent that wrote a note and ran turns), PostgreSQL
 * may update such a row twice; the second update re-checks every foreign key of the row while
 * a parent it still names is already gone (its own cascade would delete the row a moment
 * later), and the whole delete fails. Checked at commit, such a row is gone by then. A2 is
 * unchanged: a reference into another workspace still fails, at commit instead of at the call.
 */
const DEFERRED_FOREIGN_KEYS = {
  conversations: [
    'fk_conversations_space',
    'fk_conversations_owner_agent',
    'fk_conversations_created_by_agent',
  ],
  messages: [
    'fk_messages_conversation',
    'fk_messages_author_agent',
    'fk_messages_author_member',
    'fk_messages_note_sender_agent',
    'fk_messages_note_source_conversation',
    'fk_messages_note_run',
  ],
  runs: [
    'fk_runs_agent',
    'fk_runs_conversation',
    'fk_runs_trigger_message',
    'fk_runs_started_by_member',
    'fk_runs_started_by_agent',
  ],
} as const;

const deferral = (mode: 'DEFERRABLE INITIALLY DEFERRED' | 'NOT DEFERRABLE'): string[] =>
  Object.entries(DEFERRED_FOREIGN_KEYS).flatMap(([table, keys]) =>
    keys.map((key) => `ALTER TABLE ${table} ALTER CONSTRAINT ${key} ${mode}`),
  );

const UP = [
  ...deferral('DEFERRABLE INITIALLY DEFERRED'),
  'ALTER TABLE runs ADD COLUMN status_card_ref text',
  'ALTER TABLE runs ADD COLUMN reply_message_id uuid',
  `ALTER TABLE runs ADD CONSTRAINT fk_runs_reply_message FOREIGN KEY (reply_message_id, workspace_id)
    REFERENCES messages (id, workspace_id) ON DELETE SET NULL (reply_message_id) DEFERRABLE INITIALLY DEFERRED`,
  'CREATE INDEX ix_runs_lane ON runs (agent_id, conversation_id, status, created_at, seq)',
  'CREATE INDEX ix_runs_status ON runs (status, created_at, seq)',
  `CREATE INDEX ix_messages_agent_replies ON messages (conversation_id, created_at, seq)
    WHERE author_kind = 'agent' AND NOT is_note`,
  'CREATE INDEX ix_messages_note_run ON messages (note_run_id) WHERE note_run_id IS NOT NULL',
  `ALTER TABLE messages ADD CONSTRAINT uq_messages_platform_ref UNIQUE (conversation_id, platform_message_ref)`,
  `ALTER TABLE messages ALTER COLUMN mentions SET DEFAULT '{"agents": [], "members": []}'`,
  // N9: a note stored without a fold state follows its turn, as a new one does.
  `UPDATE messages SET note_fold_state = 'auto' WHERE is_note AND note_fold_state IS NULL`,
  `ALTER TABLE messages ADD CONSTRAINT ck_messages_note_fold_state_set CHECK (NOT is_note OR note_fold_state IS NOT NULL)`,
];

const DOWN = [
  'ALTER TABLE messages DROP CONSTRAINT ck_messages_note_fold_state_set',
  `ALTER TABLE messages ALTER COLUMN mentions SET DEFAULT '[]'`,
  'ALTER TABLE messages DROP CONSTRAINT uq_messages_platform_ref',
  'DROP INDEX ix_messages_note_run',
  'DROP INDEX ix_messages_agent_replies',
  'DROP INDEX ix_runs_status',
  'DROP INDEX ix_runs_lane',
  'ALTER TABLE runs DROP CONSTRAINT fk_runs_reply_message',
  'ALTER TABLE runs DROP COLUMN reply_message_id',
  'ALTER TABLE runs DROP COLUMN status_card_ref',
  ...deferral('NOT DEFERRABLE'),
];

/**
 * What the turn engine needs from runs and messages:
 * - P9: a run remembers its status card, so that the card can still be edited after a restart,
 *   and its reply message once posted (a same-workspace reference, A2, cleared if the message goes);
 * - one turn at a time per (agent, conversation): the lane index lets `claimNext` find the
 *   lane's running and oldest queued runs without scanning;
 * - start-up recovery and the silence watchdog list runs by status;
 * - M3 ("the agent that spoke last") and N9 (a note's fold follows its run) read messages by
 *   author and by run;
 * - P6/P11: a platform message is recorded once per conversation (NULLs stay distinct: a message
 *   not posted yet has no ref);
 * - `mentions` holds an object ({agents, members}), so its default becomes the empty one, and a
 *   note always has a fold state (N9), so `note` is null exactly when `is_note` is false;
 * - the same-workspace references of conversations, messages and runs are checked at commit
 *   (see DEFERRED_FOREIGN_KEYS).
 *
 * The tenant role needs no new grant: table grants cover new columns, and the advisory lock
 * functions are executable by everyone.
 */
export class RunCardsAndReplies1764547200000 implements MigrationInterface {
  readonly name = 'RunCardsAndReplies1764547200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
