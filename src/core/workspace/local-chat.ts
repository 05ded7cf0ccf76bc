import type { MemberRecord, SpaceRecord, WorkspaceRecord } from '../model/records';
import type { StoreTx } from '../ports/store';
import { ensureWorkspace } from './seed-workspace';

export const LOCAL_WORKSPACE = 'default';
export const LOCAL_SPACE = 'general';
export const LOCAL_MEMBER = 'you';
/** The terminal's one channel id; its bindings are local and never exported. */
export const LOCAL_CHANNEL = 'general';

/**
 * The embedded default's chat: member `you` (owner) in workspace `default`, space `general`
 * (dedicated, so every message is answered, P3) with the seeded agents, bound to the terminal.
 * Idempotent; what a person changed (the space's context, extra participants) is kept.
 */
export async function ensureLocalChat(
  tx: StoreTx,
): Promise<{ workspace: WorkspaceRecord; space: SpaceRecord; member: MemberRecord }> {
  const { workspace } = await ensureWorkspace(tx, LOCAL_WORKSPACE, 'Default workspace');
  const member =
    (await tx.members.findByNickname(workspace.id, LOCAL_MEMBER)) ??
    (await tx.members.insert(workspace.id, {
      nickname: LOCAL_MEMBER,
      role: 'owner',
      slackUserId: null,
      discordUserId: null,
    }));
  let space = await tx.spaces.findByName(workspace.id, LOCAL_SPACE);
  if (space === null) {
    space = await tx.spaces.insert(workspace.id, {
      name: LOCAL_SPACE,
      context: 'A local chat in the terminal.',
      mode: 'chat',
      autonomy: 'actWithApproval',
      dedicated: true,
      whileRunning: 'steer',
      repos: [],
    });
    for (const agent of await tx.agents.list(workspace.id)) {
      await tx.spaces.addParticipant(space.id, { kind: 'agent', agentId: agent.id });
    }
    await tx.spaces.addParticipant(space.id, { kind: 'member', memberId: member.id });
  }
  if ((await tx.channelBindings.find('terminal', LOCAL_CHANNEL)) === null) {
    await tx.channelBindings.bind(space.id, 'terminal', LOCAL_CHANNEL);
  }
  return { workspace, space, member };
}
