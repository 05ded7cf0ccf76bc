import { canStartWork } from '../../model/member';
import type { MemberRecord, SpaceRecord, WorkspaceRecord } from '../../model/records';
import type { InboundMessage } from '../../ports/chat-platform';
import type { RoutingReads } from '../../ports/routing-reads';
import type { StoreTx } from '../../ports/store';

export type SenderResolution =
  | { ok: true; workspace: WorkspaceRecord; space: SpaceRecord; member: MemberRecord }
  | { ok: false; reason: string };

/**
 * P1, P8: every inbound message resolves to a workspace, a space and a member before anything
 * runs; membership is checked again on every event. A refusal says what to do. Decided from
 * what routing read (`tx.routingReads`, one round trip).
 */
export function senderFrom(reads: RoutingReads): SenderResolution {
  const { workspace, binding, space, sender: member } = reads;
  if (workspace === null) {
    return {
      ok: false,
      reason:
        'This team is not linked to a Summon workspace yet; an operator can add it to the workspace file.',
    };
  }
  if (binding === null || binding.workspaceId !== workspace.id) {
    return {
      ok: false,
      reason: 'This channel is not linked to a space. An admin can link it with `/summon link <space>`.',
    };
  }
  if (space === null || space.id !== binding.spaceId)
    return { ok: false, reason: 'The space this channel was linked to no longer exists.' };

  if (member === null) {
    return {
      ok: false,
      reason:
        'You are not a member of this Summon workspace yet. Ask an admin for a one-time code (`summon members invite`) and send `/summon link-account <code>`, or ask them to add you to the workspace file.',
    };
  }
  if (!canStartWork(member.role)) {
    return {
      ok: false,
      reason: `Your role (${member.role}) can read along but cannot start work. An admin can change it.`,
    };
  }
  return { ok: true, workspace, space, member };
}

/** P8 for clicks and commands: the actor must be a member of the workspace (any role may toggle a note). */
export async function resolveActor(
  tx: StoreTx,
  actor: Pick<InboundMessage, 'platform' | 'workspace' | 'senderId'>,
): Promise<MemberRecord | null> {
  const workspace = await findWorkspace(tx, actor.workspace);
  return workspace === null ? null : findMember(tx, workspace.id, actor);
}

function findWorkspace(tx: StoreTx, ref: InboundMessage['workspace']): Promise<WorkspaceRecord | null> {
  if ('slug' in ref) return tx.workspaces.findBySlug(ref.slug);
  return tx.platformBindings
    .find(ref.platform, ref.externalId)
    .then((binding) => (binding === null ? null : tx.workspaces.findById(binding.workspaceId)));
}

/** The terminal's sender is the member's nickname; Slack and Discord send their user id. */
function findMember(
  tx: StoreTx,
  workspaceId: string,
  message: Pick<InboundMessage, 'platform' | 'senderId'>,
): Promise<MemberRecord | null> {
  if (message.platform === 'terminal') return tx.members.findByNickname(workspaceId, message.senderId);
  return tx.members.findByPlatformUser(workspaceId, message.platform, message.senderId);
}
