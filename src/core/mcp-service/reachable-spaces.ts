import { NotFoundError } from '../errors';
import type { Platform } from '../model/platform';
import type { AgentRecord, ChannelBindingRecord, MemberRecord, SpaceRecord } from '../model/records';
import type { StoreTx } from '../ports/store';
import { directSpaceName } from '../spaces/direct-space';

/** A space the member may reach, with its channels and its agents. */
export interface SpaceReach {
  space: SpaceRecord;
  bindings: ChannelBindingRecord[];
  agents: AgentRecord[];
}

/**
 * E6, P8: the spaces a member may reach from MCP are the ones people reach in chat: bound to a
 * channel, and not another member's direct-message space (P1: `dm-<nickname>`, with that member
 * in it). Read inside the caller's workspace transaction (A2).
 */
export async function reachableSpaces(tx: StoreTx, member: MemberRecord): Promise<SpaceReach[]> {
  const workspaceId = member.workspaceId;
  const spaces = await tx.spaces.list(workspaceId);
  const bindings = await tx.channelBindings.listForWorkspace(workspaceId);
  const agents = await tx.agents.list(workspaceId);
  const members = await tx.members.list(workspaceId);
  const othersDirect = new Map(
    members.filter((m) => m.id !== member.id).map((m) => [directSpaceName(m.nickname), m.id]),
  );
  const reach: SpaceReach[] = [];
  for (const space of spaces) {
    const bound = bindings.filter((b) => b.spaceId === space.id);
    if (bound.length === 0) continue;
    const participants = await tx.spaces.listParticipants(space.id);
    const owner = othersDirect.get(space.name);
    if (owner !== undefined && participants.some((p) => p.kind === 'member' && p.memberId === owner))
      continue;
    const agentIds = participants.flatMap((p) => (p.kind === 'agent' ? [p.agentId] : []));
    reach.push({ space, bindings: bound, agents: agents.filter((a) => agentIds.includes(a.id)) });
  }
  return reach;
}

/** The reachable space of that name, or a sentence naming the ones there are. */
export function findReachable(reach: readonly SpaceReach[], name: string): SpaceReach {
  const wanted = name.trim().replace(/^#/, '').toLowerCase();
  const found = reach.find((r) => r.space.name.toLowerCase() === wanted);
  if (found !== undefined) return found;
  const known = reach.map((r) => r.space.name).join(', ') || 'none';
  throw new NotFoundError(`There is no space "${name}" you can reach (your spaces: ${known}).`);
}

/** E6, P8: the member's own account on a platform, as the platform's messages name them. */
export function accountOn(member: MemberRecord, platform: Platform): string | null {
  if (platform === 'terminal') return member.nickname;
  if (platform === 'github') return member.githubLogin ?? null;
  return platform === 'slack' ? member.slackUserId : member.discordUserId;
}

/** A sentence for a member with no account on the platform a space or a card lives on. */
export function noAccountOn(member: MemberRecord, platform: Platform): string {
  const name =
    { slack: 'Slack', discord: 'Discord', github: 'GitHub', terminal: 'the terminal' }[platform] ?? platform;
  return `@${member.nickname} has no ${name} account linked, and this happens on ${name}: send \`/summon link-account <code>\` there first (an admin makes the code with \`summon members invite ${member.nickname}\`).`;
}
