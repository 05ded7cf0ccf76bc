import type { MemberRole } from '../model/member';
import { type AccessGrant, type AccessGroup, accessGroupKey } from '../model/members/access-group';
import type { Platform } from '../model/platform';
import type { MemberRecord } from '../model/records';
import type { PlatformGroups } from '../ports/platform-groups';
import type { StoreTx } from '../ports/store';
import { accessRole } from './access-role';
import { admitMember } from './admitted-member';

/** P24: who is asking, where, as routing or a click knows them. */
export interface AdmissionRequest {
  platform: Platform;
  /** The Slack team or Discord guild; null for the terminal (no groups there). */
  teamId: string | null;
  senderId: string;
  workspaceId: string;
  /** The member the platform account is linked to, explicit or admitted before; null if none. */
  sender: MemberRecord | null;
  access: readonly AccessGrant[];
  /**
   * When the event happened. Given (routing), a record made now is returned as it will be
   * stored if its first nickname is free, with `readBack` for the stored one (T3: no round
   * trip); absent (a click), it is read back at once.
   */
  at?: Date;
}

/**
 * P24: the member a person acts as: `member` null when nobody admits them and P8's usual
 * sentence applies; a refusal when the workspace admits people by group and they hold none of
 * them (`lost`: they were admitted before), saying which groups admit them.
 */
export type Admission =
  | { ok: true; member: MemberRecord | null; readBack?: () => Promise<MemberRecord> }
  | { ok: false; reason: string; lost: boolean };

/**
 * P24: an explicit member entry always wins (it can lower what a group gives); otherwise the
 * platform says which listed groups the person holds (asked afresh on every event, from its
 * cache, so a lost group refuses the next message or click, P8), and the highest role among
 * them admits them: the first time with a member record (a unique nickname from their
 * platform name, marked with the group), later with the record's role and group kept current.
 */
export async function admitByGroup(
  tx: StoreTx,
  groups: PlatformGroups | undefined,
  request: AdmissionRequest,
): Promise<Admission> {
  const { sender, teamId } = request;
  if (sender !== null && !sender.accessVia) return { ok: true, member: sender };
  const listed = request.access.filter((grant) => grant.group.platform === request.platform);
  if (sender === null && (listed.length === 0 || teamId === null || groups === undefined))
    return { ok: true, member: null };
  const held =
    teamId === null || groups === undefined || listed.length === 0
      ? null
      : await groups.heldGroups(
          teamId,
          request.senderId,
          listed.map((grant) => grant.group),
        );
  const result = held === null ? null : accessRole(null, held.held, listed);
  if (result === null || result.via.kind !== 'group') {
    return {
      ok: false,
      reason: whoIsAdmitted(request.platform, listed, held?.names ?? new Map()),
      lost: sender !== null,
    };
  }
  const via = accessGroupKey(result.via.group);
  const viaName = held?.names.get(via) ?? null;
  if (sender !== null) return { ok: true, member: await keptCurrent(tx, sender, result.role, via, viaName) };
  const made = await admitMember(tx, {
    workspaceId: request.workspaceId,
    platform: result.via.group.platform,
    senderId: request.senderId,
    displayName: held?.displayName ?? null,
    fields: { role: result.role, accessVia: via, accessViaName: viaName },
  });
  if (request.at !== undefined)
    return { ok: true, member: { ...made.provisional, createdAt: request.at }, readBack: made.readBack };
  const stored = await made.readBack();
  // An explicit entry linked meanwhile (another member for this account) wins, as always.
  if (!stored.accessVia) return { ok: true, member: stored };
  return { ok: true, member: await keptCurrent(tx, stored, result.role, via, viaName) };
}

/** P24: an admitted member's record follows their groups (the role and group shown in `members list`). */
async function keptCurrent(
  tx: StoreTx,
  sender: MemberRecord,
  role: MemberRole,
  accessVia: string,
  accessViaName: string | null,
): Promise<MemberRecord> {
  const name = accessViaName ?? sender.accessViaName ?? null;
  if (sender.role === role && sender.accessVia === accessVia && sender.accessViaName === name) return sender;
  await tx.members.update(sender.id, { role, accessVia, accessViaName: name });
  return { ...sender, role, accessVia, accessViaName: name };
}

/** P24, P8: the refusal that helps: which groups of this platform admit people, and how to link instead. */
export function whoIsAdmitted(
  platform: Platform,
  listed: readonly AccessGrant[],
  names: ReadonlyMap<string, string>,
): string {
  const link =
    'ask an admin for a one-time code (`summon members invite`) and send `/summon link-account <code>`';
  if (listed.length === 0)
    return `You are not a member of this Summon workspace (any more). To use it, ${link}.`;
  const groups = listed.map((grant) => `${groupName(grant.group, names)} (${grant.role})`);
  return `You are not a member of this Summon workspace: it admits people ${platform === 'discord' ? 'with the server role' : 'in the Slack user group'} ${groups.join(', ')}. Ask for one of them, or ${link}.`;
}

function groupName(group: AccessGroup, names: ReadonlyMap<string, string>): string {
  if (group.kind === 'everyone') return 'everyone of this Slack workspace';
  const name = names.get(accessGroupKey(group));
  const id = group.id;
  if (group.platform === 'discord') return name === undefined ? `role ${id}` : `@${name} (${id})`;
  return name === undefined ? id : `@${name} (${id})`;
}
