import type { MemberRole } from '../member';

/** P24: the roles a platform group may give; `owner` only ever by an explicit member entry. */
export const ACCESS_ROLES = ['viewer', 'member', 'approver', 'admin'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];

/** P24: a platform group that admits people: a Discord server role, a Slack user group, or all of Slack. */
export type AccessGroup =
  | { platform: 'discord'; kind: 'role'; id: string }
  | { platform: 'slack'; kind: 'usergroup'; id: string }
  | { platform: 'slack'; kind: 'everyone' };

/** P24: one entry of the workspace's `access` list: a group and the role it gives. */
export interface AccessGrant {
  group: AccessGroup;
  role: AccessRole;
}

/** P24: one key per group, so the same group twice is found and a person's groups are matched. */
export const accessGroupKey = (group: AccessGroup): string =>
  group.kind === 'everyone' ? 'slack:everyone' : `${group.platform}:${group.kind}:${group.id}`;

/** P24: a role as it ranks for admission: higher gives more. */
export const ROLE_RANK: Readonly<Record<MemberRole, number>> = {
  viewer: 0,
  member: 1,
  approver: 2,
  admin: 3,
  owner: 4,
};
