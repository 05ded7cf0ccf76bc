import { createHash, randomBytes } from 'node:crypto';
import { NotFoundError } from '../errors';
import type { MemberRecord, WorkspaceRecord } from '../model/records';
import type { Store, StoreTx } from '../ports/store';

/** E6: the prefix of every personal token, so secret scanners (and people) can spot one. */
export const MEMBER_TOKEN_PREFIX = 'smn_';
/** 32 random bytes, base64url: 43 characters after the prefix. */
const TOKEN_SHAPE = /^smn_[A-Za-z0-9_-]{43}$/;

/** E6: the stored form of a token: sha-256 is enough for 256 random bits (no guessing, no salt needed). */
export const hashMemberToken = (token: string): string => createHash('sha256').update(token).digest('hex');

const newToken = (): string => `${MEMBER_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** Who a token speaks for, once it was found unrevoked. */
export interface TokenHolder {
  workspace: WorkspaceRecord;
  member: MemberRecord;
}

/** E6: a new token for a member, inside the caller's transaction; the token is returned once, stored hashed. */
export async function issueTokenFor(tx: StoreTx, member: MemberRecord): Promise<string> {
  const token = newToken();
  await tx.memberTokens.insert(member.workspaceId, {
    memberId: member.id,
    tokenHash: hashMemberToken(token),
  });
  return token;
}

/** The workspace and member `summon members token` names, or a sentence saying which is missing. */
async function findHolder(store: Store, workspaceSlug: string, nickname: string): Promise<TokenHolder> {
  return store.transaction(async (tx) => {
    const workspace = await tx.workspaces.findBySlug(workspaceSlug);
    if (workspace === null) throw new NotFoundError(`There is no workspace "${workspaceSlug}".`);
    const member = await tx.members.findByNickname(workspace.id, nickname.replace(/^@/, ''));
    if (member === null) {
      throw new NotFoundError(
        `There is no member @${nickname.replace(/^@/, '')} in workspace "${workspaceSlug}" (\`summon members invite <nickname>\` adds one).`,
      );
    }
    return { workspace, member };
  });
}

/** E6: `summon members token <nickname>`: a new personal token, shown once. */
export async function issueMemberToken(
  store: Store,
  request: { workspaceSlug: string; nickname: string },
): Promise<{ token: string; nickname: string; role: MemberRecord['role'] }> {
  const { workspace, member } = await findHolder(store, request.workspaceSlug, request.nickname);
  const token = await store.inWorkspace(workspace.id, (tx) => issueTokenFor(tx, member));
  return { token, nickname: member.nickname, role: member.role };
}

/** E6: `summon members token <nickname> --revoke`: every token of the member stops working. */
export async function revokeMemberTokens(
  store: Store,
  request: { workspaceSlug: string; nickname: string; now: Date },
): Promise<{ nickname: string; revoked: number }> {
  const { workspace, member } = await findHolder(store, request.workspaceSlug, request.nickname);
  const revoked = await store.inWorkspace(workspace.id, (tx) =>
    tx.memberTokens.revokeForMember(member.id, request.now),
  );
  return { nickname: member.nickname, revoked };
}

/**
 * E6, P8: the member a bearer token speaks for, or null (malformed, unknown, revoked, or its
 * member gone). Looked up in the system context: the token, not the request, says which
 * workspace; the member's current role is read each time (membership is checked on every call).
 */
export async function authenticateMemberToken(
  store: Store,
  token: string,
  now: Date,
): Promise<TokenHolder | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  return store.transaction(async (tx) => {
    const record = await tx.memberTokens.findByHash(hashMemberToken(token));
    if (record === null || record.revokedAt !== null) return null;
    const workspace = await tx.workspaces.findById(record.workspaceId);
    const member = (await tx.members.list(record.workspaceId)).find((m) => m.id === record.memberId);
    if (workspace === null || member === undefined) return null;
    await tx.memberTokens.markUsed(record.id, now);
    return { workspace, member };
  });
}
