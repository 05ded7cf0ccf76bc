import { NotFoundError } from '../errors';
import type { MemberRole } from '../model/member';
import type { Store } from '../ports/store';

/** P24: one person of `summon members list`: their role and how they got it. */
export interface MemberListing {
  nickname: string;
  role: MemberRole;
  /** `entry`: the workspace file or an invite; otherwise the group (its key, e.g. `discord:role:<id>`, and name). */
  via: { kind: 'entry' } | { kind: 'group'; group: string; name: string | null };
  slack: string | null;
  discord: string | null;
}

/** P24: the workspace's members, oldest first, each with how they got their role. */
export async function listMembers(store: Store, workspaceSlug: string): Promise<MemberListing[]> {
  const workspace = await store.transaction((tx) => tx.workspaces.findBySlug(workspaceSlug));
  if (workspace === null) throw new NotFoundError(`There is no workspace "${workspaceSlug}".`);
  const members = await store.inWorkspace(workspace.id, (tx) => tx.members.list(workspace.id));
  return members.map((member) => ({
    nickname: member.nickname,
    role: member.role,
    via: member.accessVia
      ? { kind: 'group', group: member.accessVia, name: member.accessViaName ?? null }
      : { kind: 'entry' },
    slack: member.slackUserId,
    discord: member.discordUserId,
  }));
}

/** P24: how a listing reads in the terminal: `entry`, or `via @maintainers (discord:role:…)`. */
export function viaText(via: MemberListing['via']): string {
  if (via.kind === 'entry') return 'entry';
  return via.name === null ? `via ${via.group}` : `via @${via.name} (${via.group})`;
}
