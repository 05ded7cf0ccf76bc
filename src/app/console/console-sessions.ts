import { createHash } from 'node:crypto';
import { consoleSignedIn } from '../../core/audit/audit-entries';
import { NotFoundError } from '../../core/errors';
import type { MemberRecord, WorkspaceRecord } from '../../core/model/records';
import type { Clock } from '../../core/ports/clock';
import type { ConsoleSessionRecord, ConsoleSignInVia } from '../../core/ports/console-session-store';
import type { Logger } from '../../core/ports/logger';
import type { Store } from '../../core/ports/store';
import { randomToken } from './console-cookies';

/** O5: a console session lasts this long from sign-in, then the person signs in again. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** O5: a `summon console link` works once, within this time. */
export const LINK_TTL_MS = 15 * 60 * 1000;

/** O5: who is at the console now: their session, workspace and member record as of this request. */
export interface ConsoleViewer {
  session: ConsoleSessionRecord;
  workspace: WorkspaceRecord;
  member: MemberRecord;
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * O5: console sessions are rows (revocable, server-side); the browser holds only a random token,
 * stored here as its sha-256. Every request reads the member again (P8): a member removed, or
 * whose role changed since the session began, has every session ended.
 */
export class ConsoleSessions {
  constructor(private readonly deps: { store: Store; clock: Clock; logger: Logger }) {}

  /** A new session for a member who just signed in; the token goes into the cookie, once. */
  async begin(member: MemberRecord, via: ConsoleSignInVia): Promise<{ token: string; expiresAt: Date }> {
    const token = randomToken();
    const expiresAt = new Date(this.deps.clock.now().getTime() + SESSION_TTL_MS);
    await this.deps.store.inWorkspace(member.workspaceId, async (tx) => {
      await tx.consoleSessions.insert(member.workspaceId, {
        memberId: member.id,
        kind: 'session',
        tokenHash: hashToken(token),
        csrfToken: randomToken(),
        role: member.role,
        via,
        expiresAt,
      });
      await tx.audit.append(member.workspaceId, consoleSignedIn(member, via)); // O4
    });
    this.deps.logger.info({ memberId: member.id, via }, 'O5: console session began');
    return { token, expiresAt };
  }

  /** The viewer a session token speaks for, or null (unknown, expired, ended, or its member changed). */
  async viewer(token: string | null): Promise<ConsoleViewer | null> {
    if (token === null) return null;
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const session = await tx.consoleSessions.findByHash(hashToken(token));
      if (session === null || session.kind !== 'session' || session.revokedAt !== null) return null;
      if (session.expiresAt <= now) return null;
      const workspace = await tx.workspaces.findById(session.workspaceId);
      const member = (await tx.members.list(session.workspaceId)).find((m) => m.id === session.memberId);
      if (workspace === null || member === undefined) return null;
      if (member.role !== session.role) {
        // O5: a role change ends the member's sessions; they sign in again under the new role.
        const ended = await tx.consoleSessions.revokeForMember(member.id, now);
        this.deps.logger.info({ memberId: member.id, ended }, 'O5: console sessions ended by a role change');
        return null;
      }
      return { session, workspace, member };
    });
  }

  /** Signs out: this session ends. */
  async end(session: ConsoleSessionRecord): Promise<void> {
    await this.deps.store.inWorkspace(session.workspaceId, (tx) =>
      tx.consoleSessions.revoke(session.id, this.deps.clock.now()),
    );
  }

  /** O5: `summon console link`: a one-time sign-in token for a member, valid `LINK_TTL_MS`. */
  async issueLink(workspaceSlug: string, nickname: string): Promise<{ token: string; member: MemberRecord }> {
    const token = randomToken();
    const expiresAt = new Date(this.deps.clock.now().getTime() + LINK_TTL_MS);
    const member = await this.deps.store.transaction(async (tx) => {
      const workspace = await tx.workspaces.findBySlug(workspaceSlug);
      if (workspace === null) throw new NotFoundError(`There is no workspace "${workspaceSlug}".`);
      const found = await tx.members.findByNickname(workspace.id, nickname.replace(/^@/, ''));
      if (found === null)
        throw new NotFoundError(
          `There is no member @${nickname.replace(/^@/, '')} in workspace "${workspaceSlug}".`,
        );
      return found;
    });
    await this.deps.store.inWorkspace(member.workspaceId, (tx) =>
      tx.consoleSessions.insert(member.workspaceId, {
        memberId: member.id,
        kind: 'link',
        tokenHash: hashToken(token),
        csrfToken: randomToken(),
        role: member.role,
        via: 'link',
        expiresAt,
      }),
    );
    return { token, member };
  }

  /**
   * O5: a sign-in link used: it ends (used once), and its member, still holding the role the
   * link was made for, gets a session. Null for an unknown, used, expired or outdated link.
   */
  async redeemLink(token: string): Promise<MemberRecord | null> {
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const link = await tx.consoleSessions.findByHash(hashToken(token));
      if (link === null || link.kind !== 'link' || link.expiresAt <= now) return null;
      if (!(await tx.consoleSessions.revoke(link.id, now))) return null;
      const member = (await tx.members.list(link.workspaceId)).find((m) => m.id === link.memberId);
      return member !== undefined && member.role === link.role ? member : null;
    });
  }
}
