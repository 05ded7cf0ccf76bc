import type { BindablePlatform } from '../model/platform';
import type { Store } from '../ports/store';

/** P1: the name of a member's one-person space (what tells it apart from a shared space, E6). */
export const directSpaceName = (nickname: string): string => `dm-${nickname}`;

export type DirectSpaceResult = { ok: true; spaceId: string } | { ok: false; reason: string };

/**
 * P1: a direct message with the bot is a one-person space with the workspace's top-level
 * agent (the first agent that reports to nobody), dedicated so every message is answered.
 * Made on the first message of a member; a stranger is told how to link instead (P8).
 */
export async function ensureDirectSpace(
  store: Store,
  dm: { platform: BindablePlatform; teamId: string; channelId: string; userId: string },
): Promise<DirectSpaceResult> {
  return store.transaction(async (tx) => {
    const existing = await tx.channelBindings.find(dm.platform, dm.channelId);
    if (existing !== null) return { ok: true, spaceId: existing.spaceId };
    const binding = await tx.platformBindings.find(dm.platform, dm.teamId);
    if (binding === null) {
      return {
        ok: false,
        reason:
          'This team is not linked to a Summon workspace yet; an operator can add it to the workspace file.',
      };
    }
    const workspaceId = binding.workspaceId;
    const member = await tx.members.findByPlatformUser(workspaceId, dm.platform, dm.userId);
    if (member === null) {
      return {
        ok: false,
        reason:
          'You are not a member of this Summon workspace yet. Ask an admin for a one-time code (`summon members invite`) and send `/summon link-account <code>`.',
      };
    }
    const top = (await tx.agents.list(workspaceId)).find((a) => a.reportsToId === null);
    if (top === undefined) return { ok: false, reason: 'This workspace has no agents yet.' };
    const name = directSpaceName(member.nickname);
    const space =
      (await tx.spaces.findByName(workspaceId, name)) ??
      (await tx.spaces.insert(workspaceId, {
        name,
        context: `A direct conversation between @${member.nickname} and ${top.name}.`,
        mode: 'chat',
        autonomy: 'actWithApproval',
        dedicated: true,
        whileRunning: 'steer',
        repos: [],
      }));
    await tx.spaces.addParticipant(space.id, { kind: 'agent', agentId: top.id });
    await tx.spaces.addParticipant(space.id, { kind: 'member', memberId: member.id });
    await tx.channelBindings.bind(space.id, dm.platform, dm.channelId);
    return { ok: true, spaceId: space.id };
  });
}
