import { EntitySchema } from 'typeorm';
import { ADAPTER_IDS, DEFAULT_SILENCE_TIMEOUT_MINUTES, SILENCE_TIMEOUT_RANGE } from '../../core/model/agent';
import type { AgentRecord } from '../../core/model/records';
import {
  createdAt,
  creationSeq,
  integer,
  oneOf,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  textArray,
  uuid,
  workspaceForeignKey,
} from './columns';

export interface AgentRow extends AgentRecord {
  seq: string;
}

/** A4: every attribute of an agent. */
export const AgentEntity = new EntitySchema<AgentRow>({
  name: 'agents',
  columns: {
    id: primaryId('agents'),
    seq: creationSeq,
    workspaceId: uuid(),
    name: text(),
    title: text({ default: '' }),
    persona: text({ default: '' }),
    systemPrompt: text({ nullable: true }),
    skills: textArray,
    adapterId: text({ nullable: true }),
    modelId: text({ nullable: true }),
    effort: text({ nullable: true }),
    contextSize: integer({ nullable: true }),
    silenceTimeoutMinutes: integer({ default: DEFAULT_SILENCE_TIMEOUT_MINUTES }),
    reportsToId: uuid(true),
    avatarUrl: text({ nullable: true }),
    command: text({ nullable: true }),
    createdAt,
  },
  foreignKeys: [
    workspaceForeignKey('agents'),
    sameWorkspaceForeignKey('fk_agents_reports_to', 'reportsToId', 'agents', 'SET NULL'),
  ],
  checks: [
    { name: 'ck_agents_adapter', expression: oneOf('adapter_id', ADAPTER_IDS) },
    {
      name: 'ck_agents_silence_timeout',
      expression: `silence_timeout_minutes BETWEEN ${SILENCE_TIMEOUT_RANGE.min} AND ${SILENCE_TIMEOUT_RANGE.max}`,
    },
    { name: 'ck_agents_context_size', expression: 'context_size > 0' },
    { name: 'ck_agents_reports_to_self', expression: 'reports_to_id <> id' },
  ],
  uniques: [{ name: 'uq_agents_id_workspace', columns: ['id', 'workspaceId'] }],
  indices: [
    // M4/M12: (workspace_id, lower(name)); an expression index TypeORM cannot describe.
    { name: 'uq_agents_name', columns: ['workspaceId'], unique: true, synchronize: false },
    { name: 'ix_agents_created', columns: ['workspaceId', 'createdAt', 'seq'] },
  ],
});
