import { createHash, randomBytes } from 'node:crypto';
import { memberActor, memberChanged } from '../audit/audit-entries';
import { NotFoundError, ValidationError } from '../errors';
import { MEMBER_ROLES, type MemberRole } from '../model/member';
import type { BindablePlatform } from '../model/platform';
import type { Store, StoreTx } from '../ports/store';

/** How long a code stays valid. */
export const INVITE_TTL_MS = 24 * 60 * 60 * 1000;
/** No 0/O or 1/I/L: codes are read aloud and typed. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export const hashInviteCode = (code: string): string =>
  createHash('sha256').update(code.trim().toUpperCase().replace(/-/g, '')).digest('hex');

function newCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/**
 * P8: `summon members invite <nickname>`: the member (created with `role` if new) gets a
 * one-time code, valid for a day; only its hash is stored. The code is shown once.
 */
export async function issueInvite(
  store: Store,
  request: { workspaceSlug: string; nickname: string; role?: MemberRole; now: Date },
): Promise<{ code: string; nickname: string; role: MemberRole; expiresAt: Date; created: boolean }> {
  if (request.role !== undefined && !MEMBER_ROLES.includes(request.role)) {
    throw new ValidationError(`Role must be one of ${MEMBER_ROLES.join(', ')}, not "${request.role}".`);
  }
  if (!/^[a-z0-9][a-z0-9_.-]{0,38}$/i.test(request.nickname)) {
    throw new ValidationError(`"${request.nickname}" is not a nickname: letters, digits, _ . - (up to 39).`);
  }
  const workspace = await store.transaction((tx) => tx.workspaces.findBySlug(request.workspaceSlug));
  if (workspace === null) throw new NotFoundError(`There is no workspace "${request.workspaceSlug}".`);
  const code = newCode();
  const expiresAt = new Date(request.now.getTime() + INVITE_TTL_MS);
  return store.inWorkspace(workspace.id, async (tx) => {
    let member = await tx.members.findByNickname(workspace.id, request.nickname);
    const created = member === null;
    if (member === null) {
      member = await tx.members.insert(workspace.id, {
        nickname: request.nickname,
        role: request.role ?? 'member',
        slackUserId: null,
        discordUserId: null,
      });
      await tx.audit.append(workspace.id, memberChanged('member_added', member, { where: 'cli' })); // O4
    } else if (request.role !== undefined && request.role !== member.role) {
      await tx.members.update(member.id, { role: request.role });
      const from = member.role;
      member = { ...member, role: request.role };
      await tx.audit.append(
        workspace.id,
        memberChanged('member_role_changed', member, { where: 'cli', from }),
      ); // O4
    }
    await tx.audit.append(workspace.id, memberChanged('member_invited', member, { where: 'cli' })); // O4
    await tx.memberInvites.insert(workspace.id, {
      memberId: member.id,
      codeHash: hashInviteCode(code),
      expiresAt,
    });
    return { code, nickname: member.nickname, role: member.role, expiresAt, created };
  });
}

export type RedeemResult = { ok: true; nickname: string; role: MemberRole } | { ok: false; reason: string };

/**
 * P8, P20: `/summon link-account <code>`: binds the platform account to the invited member, once.
 * Runs in the system context: the code, not the sender, says which workspace it is. On GitHub
 * the place is a repository (`externalTeamId`: `owner/name`), which must be bound to a space of
 * the code's workspace, and the account is the commenter's login.
 */
export async function redeemInvite(
  tx: StoreTx,
  request: {
    code: string;
    platform: BindablePlatform | 'github';
    externalTeamId: string;
    userId: string;
    now: Date;
  },
): Promise<RedeemResult> {
  const invite = await tx.memberInvites.findByCodeHash(hashInviteCode(request.code));
  const unknown = 'That code is not valid. Ask an admin for a new one (`summon members invite <nickname>`).';
  if (invite === null) return { ok: false, reason: unknown };
  if (invite.redeemedAt !== null)
    return { ok: false, reason: 'That code was already used. Ask an admin for a new one.' };
  if (invite.expiresAt <= request.now)
    return { ok: false, reason: 'That code has expired. Ask an admin for a new one.' };
  const binding =
    request.platform === 'github'
      ? await tx.channelBindings.find('github', request.externalTeamId.toLowerCase())
      : await tx.platformBindings.find(request.platform, request.externalTeamId);
  if (binding === null || binding.workspaceId !== invite.workspaceId) {
    return {
      ok: false,
      reason:
        request.platform === 'github'
          ? 'That code belongs to a workspace this repository is not bound to.'
          : 'That code belongs to a workspace this team is not linked to.',
    };
  }
  const existing = await tx.members.findByPlatformUser(invite.workspaceId, request.platform, request.userId);
  if (existing !== null && existing.id !== invite.memberId) {
    return { ok: false, reason: `Your account is already linked to member @${existing.nickname}.` };
  }
  const members = await tx.members.list(invite.workspaceId);
  const member = members.find((m) => m.id === invite.memberId);
  if (member === undefined) return { ok: false, reason: unknown };
  if (!(await tx.memberInvites.markRedeemed(invite.id, request.now))) {
    return { ok: false, reason: 'That code was already used. Ask an admin for a new one.' };
  }
  await tx.members.update(member.id, accountField(request.platform, request.userId));
  const linked = { actor: memberActor(member), where: request.platform, account: request.userId };
  await tx.audit.append(invite.workspaceId, memberChanged('member_linked', member, linked)); // O4
  return { ok: true, nickname: member.nickname, role: member.role };
}

/** The member's field a platform account is kept in (P20: `members[].github` for a GitHub login). */
function accountField(platform: BindablePlatform | 'github', userId: string) {
  switch (platform) {
    case 'slack':
      return { slackUserId: userId };
    case 'discord':
      return { discordUserId: userId };
    default:
      return { githubLogin: userId };
  }
}
