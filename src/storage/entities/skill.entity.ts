import { EntitySchema } from 'typeorm';
import type { SkillRecord } from '../../core/model/records';
import { createdAt, creationSeq, primaryId, text, uuid, workspaceForeignKey } from './columns';

export interface SkillRow extends SkillRecord {
  seq: string;
}

export const SkillEntity = new EntitySchema<SkillRow>({
  name: 'skills',
  columns: {
    id: primaryId('skills'),
    seq: creationSeq,
    workspaceId: uuid(),
    name: text(),
    description: text({ default: '' }),
    body: text({ default: '' }),
    createdAt,
  },
  foreignKeys: [workspaceForeignKey('skills')],
  indices: [
    // A4: (workspace_id, lower(name)); an expression index TypeORM cannot describe.
    { name: 'uq_skills_name', columns: ['workspaceId'], unique: true, synchronize: false },
  ],
});
