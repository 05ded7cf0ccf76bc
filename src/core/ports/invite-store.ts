/** P8: a one-time code issued to a member (`summon members invite`); only its hash is stored. */
export interface MemberInviteRecord {
  id: string;
  workspaceId: string;
  memberId: string;
  expiresAt: Date;
  redeemedAt: Date | null;
}

export interface MemberInviteRepository {
  insert(
    workspaceId: string,
    fields: { memberId: string; codeHash: string; expiresAt: Date },
  ): Promise<MemberInviteRecord>;
  /** The invite with this code hash, in any workspace (use it in the system context). */
  findByCodeHash(codeHash: string): Promise<MemberInviteRecord | null>;
  /** Compare-and-set: true only for the one redemption that found it unredeemed. */
  markRedeemed(id: string, at: Date): Promise<boolean>;
}
