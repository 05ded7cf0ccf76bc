import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../core/errors';
import type { WorkspaceRecord } from '../../../core/model/records';
import type { WorkspaceRepository } from '../../../core/ports/store';
import { WorkspaceEntity, type WorkspaceRow } from '../../entities/workspace.entity';
import { isUuid } from '../ids';

export const toWorkspaceRecord = (row: WorkspaceRow): WorkspaceRecord => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  allowedDomains: [...(row.allowedDomains ?? [])],
  // O3: in the record's own key order (jsonb keeps its own).
  budgets: (row.budgets ?? []).map((b) => ({
    scope: b.scope,
    target: b.target,
    per: b.per,
    unit: b.unit,
    limit: Number(b.limit),
  })),
  createdAt: row.createdAt,
});

export const workspaceRepository = (manager: EntityManager): WorkspaceRepository => {
  const rows = manager.getRepository(WorkspaceEntity);
  return {
    async list() {
      return (await rows.find({ order: { createdAt: 'ASC', seq: 'ASC' } })).map(toWorkspaceRecord);
    },
    async findBySlug(slug) {
      const row = await rows.findOneBy({ slug });
      return row ? toWorkspaceRecord(row) : null;
    },
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await rows.findOneBy({ id });
      return row ? toWorkspaceRecord(row) : null;
    },
    async insert(fields) {
      return toWorkspaceRecord(await rows.save(rows.create({ slug: fields.slug, name: fields.name })));
    },
    async rename(id, name) {
      const result = isUuid(id) ? await rows.update({ id }, { name }) : { affected: 0 };
      if (!result.affected) throw new NotFoundError(`No workspace with id ${id}.`);
    },
    async setAllowedDomains(id, allowedDomains) {
      const result = isUuid(id)
        ? await rows.update({ id }, { allowedDomains: [...allowedDomains] })
        : { affected: 0 };
      if (!result.affected) throw new NotFoundError(`No workspace with id ${id}.`);
    },
    async setBudgets(id, budgets) {
      const result = isUuid(id)
        ? await rows.update({ id }, { budgets: budgets.map((budget) => ({ ...budget })) })
        : { affected: 0 };
      if (!result.affected) throw new NotFoundError(`No workspace with id ${id}.`);
    },
  };
};
