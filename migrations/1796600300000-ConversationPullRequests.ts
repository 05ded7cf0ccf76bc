import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const UP = [
  // P22: a pull request an agent opened from a conversation, one row per pull request: the
  // thread shows it in one message (`card_ref`, edited in place as its head, state and checks
  // change), and a comment on it is routed to that conversation. `repo` is `owner/name`,
  // lower-cased, as GitHub's webhooks are matched.
  `CREATE TABLE conversation_pull_requests (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    run_id uuid,
    repo text NOT NULL,
    number integer NOT NULL,
    head_sha text,
    title text NOT NULL,
    url text NOT NULL,
    state text NOT NULL DEFAULT 'open',
    checks text NOT NULL DEFAULT 'pending',
    card_ref text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_conversation_pull_requests PRIMARY KEY (id),
    CONSTRAINT uq_conversation_pull_requests_pull UNIQUE (repo, number),
    CONSTRAINT fk_conversation_pull_requests_conversation FOREIGN KEY (conversation_id)
      REFERENCES conversations (id) ON DELETE CASCADE,
    CONSTRAINT fk_conversation_pull_requests_agent FOREIGN KEY (agent_id) REFERENCES agents (id) ON DELETE CASCADE,
    CONSTRAINT fk_conversation_pull_requests_run FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE SET NULL,
    CONSTRAINT ck_conversation_pull_requests_state CHECK (state IN ('open', 'closed', 'merged')),
    CONSTRAINT ck_conversation_pull_requests_checks CHECK (checks IN ('pending', 'success', 'failure', 'neutral'))
  )`,
  'CREATE INDEX ix_conversation_pull_requests_conversation ON conversation_pull_requests (conversation_id)',
  'CREATE INDEX ix_conversation_pull_requests_run ON conversation_pull_requests (run_id)',
  // P23: the claim that wakes a pull request's agent once per failing head commit: a second
  // failure delivery (a redelivery, another suite) on the same commit finds the key taken.
  `CREATE TABLE pull_request_failure_wakes (
    pull_request_id uuid NOT NULL,
    workspace_id uuid NOT NULL,
    head_sha text NOT NULL,
    run_id uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_pull_request_failure_wakes PRIMARY KEY (pull_request_id, head_sha),
    CONSTRAINT fk_pull_request_failure_wakes_pull FOREIGN KEY (pull_request_id)
      REFERENCES conversation_pull_requests (id) ON DELETE CASCADE,
    CONSTRAINT fk_pull_request_failure_wakes_run FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE SET NULL
  )`,
  'CREATE INDEX ix_pull_request_failure_wakes_run ON pull_request_failure_wakes (run_id)',
  // A2: the same tenant isolation as every other workspace table.
  ...['conversation_pull_requests', 'pull_request_failure_wakes'].flatMap((table) => [
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO summon_tenant`,
    `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
    `CREATE POLICY tenant_isolation ON ${table} USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
  ]),
];

const DOWN = ['DROP TABLE pull_request_failure_wakes', 'DROP TABLE conversation_pull_requests'];

/** P22, P23: pull requests agents opened, on their conversations; CI failures woken once per commit. */
export class ConversationPullRequests1796600300000 implements MigrationInterface {
  readonly name = 'ConversationPullRequests1796600300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
