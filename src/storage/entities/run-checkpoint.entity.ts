import { EntitySchema } from 'typeorm';
import { integer, jsonb, sameWorkspaceForeignKey, text, timestamp, uuid } from './columns';

/** T2: a run's checkpoint at its last tool boundary (one row per run). */
export interface RunCheckpointRow {
  runId: string;
  workspaceId: string;
  checkpoint: unknown;
  step: number;
  statusCardRef: string | null;
  approvalId: string | null;
  parkedAt: Date | null;
  /** T2, A9: what the in-flight call waits on besides an approval (`question`, `run`). */
  awaitsKind: string | null;
  awaitsId: string | null;
  awaitsUntil: Date | null;
  updatedAt: Date;
}

export const RunCheckpointEntity = new EntitySchema<RunCheckpointRow>({
  name: 'run_checkpoints',
  columns: {
    runId: { type: 'uuid', primary: true, primaryKeyConstraintName: 'pk_run_checkpoints' },
    workspaceId: uuid(),
    checkpoint: jsonb('{}'),
    step: integer({ default: 0 }),
    statusCardRef: text({ nullable: true }),
    approvalId: uuid(true),
    parkedAt: timestamp({ nullable: true }),
    awaitsKind: text({ nullable: true }),
    awaitsId: uuid(true),
    awaitsUntil: timestamp({ nullable: true }),
    updatedAt: timestamp({ defaultNow: true }),
  },
  foreignKeys: [sameWorkspaceForeignKey('fk_run_checkpoints_run', 'runId', 'runs', 'CASCADE')],
  indices: [{ name: 'ix_run_checkpoints_awaits_run', columns: ['awaitsId'], where: "awaits_kind = 'run'" }],
  checks: [
    {
      name: 'ck_run_checkpoints_parked',
      expression: 'parked_at IS NULL OR approval_id IS NOT NULL OR awaits_id IS NOT NULL',
    },
    {
      name: 'ck_run_checkpoints_awaits',
      expression:
        "(awaits_kind IS NULL AND awaits_id IS NULL AND awaits_until IS NULL) OR (awaits_kind IN ('question', 'run') AND awaits_id IS NOT NULL)",
    },
  ],
});
