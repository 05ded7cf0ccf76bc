import type { MemberRole } from '../model/member';
import {
  type AccessGrant,
  type AccessGroup,
  type AccessRole,
  accessGroupKey,
  ROLE_RANK,
} from '../model/members/access-group';

/** P24: how a person came by their role: their explicit member entry, or one listed group. */
export type AccessVia = { kind: 'entry' } | { kind: 'group'; group: AccessGroup };

export interface AccessRoleResult {
  role: MemberRole;
  via: AccessVia;
}

/**
 * P24: a person's role in a workspace. An explicit member entry always wins, lower or higher
 * than their groups give; without one, the highest role any of their groups gives (the first
 * listed of equals), never owner; in no listed group and with no entry, null (P8: refused).
 * `groups` are the person's platform groups; Slack's `everyone` is among them for every
 * person of the bound Slack team, as the caller knows.
 */
export function accessRole(
  entry: { role: MemberRole } | null,
  groups: readonly AccessGroup[],
  access: readonly AccessGrant[],
): AccessRoleResult | null {
  if (entry !== null) return { role: entry.role, via: { kind: 'entry' } };
  const held = new Set(groups.map(accessGroupKey));
  let best: AccessGrant | null = null;
  for (const grant of access) {
    if (!held.has(accessGroupKey(grant.group))) continue;
    if (best === null || ROLE_RANK[grant.role] > ROLE_RANK[best.role]) best = grant;
  }
  if (best === null) return null;
  return { role: neverOwner(best.role), via: { kind: 'group', group: best.group } };
}

/** P24: the schema and the table refuse `owner` in `access`; this holds even if one slipped by. */
function neverOwner(role: AccessRole | MemberRole): MemberRole {
  return role === 'owner' ? 'admin' : role;
}
