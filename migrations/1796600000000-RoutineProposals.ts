import type { MigrationInterface, QueryRunner } from 'typeorm';

const GUARDRAIL = "'commit', 'push_to_remote', 'open_pull_request', 'tracker_write', 'network', 'mcp'";
const WITH_PROPOSALS = `${GUARDRAIL}, 'schedule_routine'`;

const actionCheck = (actions: string) => [
  'ALTER TABLE approvals DROP CONSTRAINT ck_approvals_action',
  `ALTER TABLE approvals ADD CONSTRAINT ck_approvals_action CHECK (action IN (${actions}))`,
];

const UP = [
  // W1: an agent's `schedule_routine` proposal is an approval card (Confirm / Cancel); the
  // routine it would store rides on the approval until a person decides it.
  ...actionCheck(WITH_PROPOSALS),
  'ALTER TABLE approvals ADD COLUMN routine_proposal jsonb',
  `ALTER TABLE approvals ADD CONSTRAINT ck_approvals_routine_proposal
     CHECK ((action = 'schedule_routine') = (routine_proposal IS NOT NULL))`,
  // W1, W4: who made a routine made from chat (names as they were; NULL: the workspace file).
  'ALTER TABLE routines ADD COLUMN proposed_by text',
  'ALTER TABLE routines ADD COLUMN confirmed_by text',
];

const DOWN = [
  'ALTER TABLE routines DROP COLUMN confirmed_by',
  'ALTER TABLE routines DROP COLUMN proposed_by',
  "DELETE FROM approvals WHERE action = 'schedule_routine'",
  'ALTER TABLE approvals DROP CONSTRAINT ck_approvals_routine_proposal',
  'ALTER TABLE approvals DROP COLUMN routine_proposal',
  ...actionCheck(GUARDRAIL),
];

/** W1: routines proposed from chat and confirmed on their card. */
export class RoutineProposals1796600000000 implements MigrationInterface {
  readonly name = 'RoutineProposals1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
