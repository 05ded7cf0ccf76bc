import { EntitySchema } from 'typeorm';
import { STEERING_STATES, type SteeringState } from '../../core/model/steering';
import {
  createdAt,
  creationSeq,
  oneOf,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  timestamp,
  uuid,
} from './columns';

/** P16: a person's message waiting to join a running turn, then taken by it or queued as a turn. */
export interface RunSteeringRow {
  id: string;
  seq: string;
  workspaceId: string;
  runId: string;
  messageId: string;
  state: SteeringState;
  createdAt: Date;
  settledAt: Date | null;
}

export const RunSteeringEntity = new EntitySchema<RunSteeringRow>({
  name: 'run_steering',
  columns: {
    id: primaryId('run_steering'),
    seq: creationSeq,
    workspaceId: uuid(),
    runId: uuid(),
    messageId: uuid(),
    state: text({ default: 'pending' }),
    createdAt,
    settledAt: timestamp({ nullable: true }),
  },
  foreignKeys: [
    sameWorkspaceForeignKey('fk_run_steering_run', 'runId', 'runs', 'CASCADE'),
    sameWorkspaceForeignKey('fk_run_steering_message', 'messageId', 'messages', 'CASCADE'),
  ],
  checks: [
    { name: 'ck_run_steering_state', expression: oneOf('state', STEERING_STATES) },
    { name: 'ck_run_steering_settled', expression: "(state = 'pending') = (settled_at IS NULL)" },
  ],
  indices: [
    {
      name: 'ix_run_steering_pending',
      columns: ['runId', 'createdAt', 'seq'],
      where: "state = 'pending'",
    },
  ],
});
