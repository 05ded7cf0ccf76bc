/** Roles of a human member of a workspace (SPEC §1, G4, P8). */
export const MEMBER_ROLES = ['owner', 'admin', 'approver', 'member', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** G4: only these roles may decide an approval. */
export const APPROVER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'approver'];

/** P8: a viewer can read but cannot start work. */
export const canStartWork = (role: MemberRole): boolean => role !== 'viewer';
export const canApprove = (role: MemberRole): boolean => APPROVER_ROLES.includes(role);

/** O4, O5: who may read the audit log in the console (the CLI's `summon audit` is the operator's). */
export const canReadAudit = (role: MemberRole): boolean => role === 'owner' || role === 'admin';
