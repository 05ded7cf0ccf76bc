import type { AccessGrant } from '../model/members/access-group';

/** P24: the workspace's `access` list, in the file's order. */
export interface AccessGroupRepository {
  /** P24: one workspace's grants, in a system transaction too (apply, export). */
  listForWorkspace(workspaceId: string): Promise<AccessGrant[]>;
  /** P24: whether any workspace's `access` names a group of this platform (the Discord members intent). */
  anyOnPlatform(platform: AccessGrant['group']['platform']): Promise<boolean>;
  /** P24: replaces the workspace's grants by these, in this order. */
  replace(workspaceId: string, grants: readonly AccessGrant[]): Promise<void>;
}
