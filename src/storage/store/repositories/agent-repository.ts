import type { EntityManager } from 'typeorm';
import type { AgentFields, AgentRecord } from '../../../core/model/records';
import type { AgentRepository } from '../../../core/ports/store';
import { AgentEntity, type AgentRow } from '../../entities/agent.entity';
import { isUuid } from '../ids';
import { updateById } from '../update-by-id';

export const toAgentRecord = (row: AgentRow): AgentRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  name: row.name,
  title: row.title,
  persona: row.persona,
  systemPrompt: row.systemPrompt,
  skills: [...row.skills],
  adapterId: row.adapterId,
  modelId: row.modelId,
  effort: row.effort,
  contextSize: row.contextSize,
  silenceTimeoutMinutes: row.silenceTimeoutMinutes,
  reportsToId: row.reportsToId,
  avatarUrl: row.avatarUrl,
  command: row.command,
  createdAt: row.createdAt,
});

const AGENT_FIELDS = [
  'name',
  'title',
  'persona',
  'systemPrompt',
  'skills',
  'adapterId',
  'modelId',
  'effort',
  'contextSize',
  'silenceTimeoutMinutes',
  'reportsToId',
  'avatarUrl',
  'command',
] as const satisfies readonly (keyof AgentFields)[];

/** Exactly the A4 attributes, whatever else the caller's object carries. */
const agentFields = (fields: AgentFields): AgentFields => ({
  name: fields.name,
  title: fields.title,
  persona: fields.persona,
  systemPrompt: fields.systemPrompt,
  skills: [...fields.skills],
  adapterId: fields.adapterId,
  modelId: fields.modelId,
  effort: fields.effort,
  contextSize: fields.contextSize,
  silenceTimeoutMinutes: fields.silenceTimeoutMinutes,
  reportsToId: fields.reportsToId,
  avatarUrl: fields.avatarUrl,
  command: fields.command,
});

export const agentRepository = (manager: EntityManager): AgentRepository => {
  const rows = manager.getRepository(AgentEntity);
  return {
    async list(workspaceId) {
      if (!isUuid(workspaceId)) return [];
      // M5: the earliest-created agent wins a prefix tie, so this order must be total.
      const found = await rows.find({ where: { workspaceId }, order: { createdAt: 'ASC', seq: 'ASC' } });
      return found.map(toAgentRecord);
    },
    async findByName(workspaceId, name) {
      if (!isUuid(workspaceId)) return null;
      // M4: names match case-insensitively.
      const row = await rows
        .createQueryBuilder('agent')
        .where('agent.workspaceId = :workspaceId', { workspaceId })
        .andWhere('lower(agent.name) = lower(:name)', { name })
        .getOne();
      return row ? toAgentRecord(row) : null;
    },
    async insert(workspaceId, fields) {
      // A2: the workspace is never null; the column and its foreign key refuse a missing one.
      return toAgentRecord(await rows.save(rows.create({ workspaceId, ...agentFields(fields) })));
    },
    async update(id, patch) {
      await updateById(rows, id, patch, AGENT_FIELDS, 'agent');
    },
  };
};
