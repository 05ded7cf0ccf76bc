import type { MigrationInterface, QueryRunner } from 'typeorm';

const OLD = "'commit', 'push_to_remote', 'open_pull_request', 'tracker_write', 'network'";
const NEW = `${OLD}, 'mcp'`;

/** E4: `mcp` is a guardrail action: rules and approvals may name it. */
function constraints(actions: string): string[] {
  return [
    'ALTER TABLE guardrail_rules DROP CONSTRAINT ck_guardrail_rules_action',
    `ALTER TABLE guardrail_rules ADD CONSTRAINT ck_guardrail_rules_action CHECK (action IN (${actions}))`,
    'ALTER TABLE approvals DROP CONSTRAINT ck_approvals_action',
    `ALTER TABLE approvals ADD CONSTRAINT ck_approvals_action CHECK (action IN (${actions}))`,
  ];
}

export class McpAction1796400000000 implements MigrationInterface {
  readonly name = 'McpAction1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of constraints(NEW)) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM guardrail_rules WHERE action = 'mcp'");
    await queryRunner.query("DELETE FROM approvals WHERE action = 'mcp'");
    for (const sql of constraints(OLD)) await queryRunner.query(sql);
  }
}
