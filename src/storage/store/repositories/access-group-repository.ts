import type { EntityManager } from 'typeorm';
import type { AccessGrant, AccessGroup, AccessRole } from '../../../core/model/members/access-group';
import type { AccessGroupRepository } from '../../../core/ports/access-group-store';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';

export interface GrantRow {
  platform: string;
  kind: string;
  group_id: string | null;
  role: AccessRole;
}

/** The table's check constraint allows only these shapes (P24). */
const groupOf = (row: GrantRow): AccessGroup =>
  row.kind === 'everyone'
    ? { platform: 'slack', kind: 'everyone' }
    : row.platform === 'discord'
      ? { platform: 'discord', kind: 'role', id: row.group_id ?? '' }
      : { platform: 'slack', kind: 'usergroup', id: row.group_id ?? '' };

/** P24: a stored row as the grant it is. */
export const toAccessGrant = (row: GrantRow): AccessGrant => ({ group: groupOf(row), role: row.role });

/** P24: the workspace's `access` list, stored in the file's order. */
export const accessGroupRepository = (manager: EntityManager): AccessGroupRepository => ({
  async listForWorkspace(workspaceId) {
    if (!isUuid(workspaceId)) return [];
    const rows = await queryRecords<GrantRow>(
      manager,
      'SELECT platform, kind, group_id, role FROM access_groups WHERE workspace_id = $1 ORDER BY position',
      [workspaceId],
    );
    return rows.map(toAccessGrant);
  },
  async anyOnPlatform(platform) {
    const rows = await queryRecords<{ found: boolean }>(
      manager,
      'SELECT EXISTS (SELECT 1 FROM access_groups WHERE platform = $1) AS found',
      [platform],
    );
    return rows[0]?.found === true;
  },
  async replace(workspaceId, grants: readonly AccessGrant[]) {
    await queryRecords(manager, 'DELETE FROM access_groups WHERE workspace_id = $1', [workspaceId]);
    if (grants.length === 0) return;
    const params: unknown[] = [workspaceId];
    const values = grants.map(({ group, role }, position) => {
      params.push(group.platform, group.kind, group.kind === 'everyone' ? null : group.id, role, position);
      const at = params.length - 5;
      return `($1, $${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5})`;
    });
    await queryRecords(
      manager,
      `INSERT INTO access_groups (workspace_id, platform, kind, group_id, role, position) VALUES ${values.join(', ')}`,
      params,
    );
  },
});
