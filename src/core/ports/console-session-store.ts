import type { MemberRole } from '../model/member';

/** O5: how a console session began: a platform's sign-in, or `summon console link`. */
export type ConsoleSignInVia = 'slack' | 'discord' | 'link';

/** O5: a web console session, or a one-time sign-in link; only its token's hash is stored. */
export interface ConsoleSessionRecord {
  id: string;
  workspaceId: string;
  memberId: string;
  kind: 'session' | 'link';
  /** Sent back in every state-changing request's form or header. */
  csrfToken: string;
  /** The member's role when it began: a different role now ends it. */
  role: MemberRole;
  via: ConsoleSignInVia;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export type NewConsoleSession = Pick<
  ConsoleSessionRecord,
  'memberId' | 'kind' | 'csrfToken' | 'role' | 'via' | 'expiresAt'
> & { tokenHash: string };

export interface ConsoleSessionRepository {
  insert(workspaceId: string, fields: NewConsoleSession): Promise<ConsoleSessionRecord>;
  /** The session with this hash, in any workspace (system context: the token says whose it is). */
  findByHash(tokenHash: string): Promise<ConsoleSessionRecord | null>;
  /** Revokes one session or link; false when it was revoked already (a link used twice). */
  revoke(id: string, at: Date): Promise<boolean>;
  /** Revokes every unrevoked session and link of the member; returns how many. */
  revokeForMember(memberId: string, at: Date): Promise<number>;
}
