/** E6: a member's personal token for Summon's MCP endpoint; only its hash is stored. */
export interface MemberTokenRecord {
  id: string;
  workspaceId: string;
  memberId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface MemberTokenRepository {
  insert(workspaceId: string, fields: { memberId: string; tokenHash: string }): Promise<MemberTokenRecord>;
  /** The token with this hash, in any workspace (use it in the system context: the token says whose it is). */
  findByHash(tokenHash: string): Promise<MemberTokenRecord | null>;
  markUsed(id: string, at: Date): Promise<void>;
  /** Revokes every unrevoked token of the member; returns how many. */
  revokeForMember(memberId: string, at: Date): Promise<number>;
}
