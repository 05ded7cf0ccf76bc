import { admitByGroup } from '../../members/admit-by-group';
import { canStartWork } from '../../model/member';
import type { Platform } from '../../model/platform';
import type { MemberRecord, SpaceRecord, WorkspaceRecord } from '../../model/records';
import type { ChatPlatform, InboundMessage } from '../../ports/chat-platform';
import type { RoutingReads } from '../../ports/routing-reads';
import type { StoreTx } from '../../ports/store';

export type SenderResolution =
  | {
      ok: true;
      workspace: WorkspaceRecord;
      space: SpaceRecord;
      member: MemberRecord;
      /** P24: a member record made by this message: read it back where its nickname matters. */
      readBack?: () => Promise<MemberRecord>;
    }
  | { ok: false; reason: string; privately?: boolean };

type Place = { ok: true; workspace: WorkspaceRecord; space: SpaceRecord } | { ok: false; reason: string };

/**
 * P1, P8: every inbound message resolves to a workspace, a space and a member before anything
 * runs; membership is checked again on every event. A refusal says what to do. Decided from
 * what routing read (`tx.routingReads`, one round trip).
 */
export function senderFrom(reads: RoutingReads): SenderResolution {
  const place = placeFrom(reads);
  return place.ok ? memberFrom(place, reads.sender) : place;
}

/**
 * P24, P8: `senderFrom` with access by group: in a known place, a person without an explicit
 * entry is admitted (or refused) by the groups the platform says they hold. A refusal of
 * someone never admitted is told privately (P5); one who lost their group hears P8's sentence.
 */
export async function resolveSender(
  tx: StoreTx,
  platforms: ReadonlyMap<Platform, ChatPlatform>,
  message: Pick<InboundMessage, 'platform' | 'workspace' | 'senderId' | 'receivedAt'>,
  reads: RoutingReads,
): Promise<SenderResolution> {
  const place = placeFrom(reads);
  if (!place.ok) return place;
  const admission = await admitByGroup(tx, platforms.get(message.platform)?.groups, {
    platform: message.platform,
    teamId: 'externalId' in message.workspace ? message.workspace.externalId : null,
    senderId: message.senderId,
    workspaceId: place.workspace.id,
    sender: reads.sender,
    access: reads.access,
    at: message.receivedAt,
  });
  if (!admission.ok) return { ok: false, reason: admission.reason, privately: !admission.lost };
  const resolved = memberFrom(place, admission.member);
  return resolved.ok && admission.readBack !== undefined
    ? { ...resolved, readBack: admission.readBack }
    : resolved;
}

function placeFrom(reads: RoutingReads): Place {
  const { workspace, binding, space } = reads;
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
  return { ok: true, workspace, space };
}

function memberFrom(place: Place & { ok: true }, member: MemberRecord | null): SenderResolution {
  const { workspace, space } = place;
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
  platforms: ReadonlyMap<Platform, ChatPlatform>,
): Promise<MemberRecord | null> {
  const workspace = await findWorkspace(tx, actor.workspace);
  if (workspace === null) return null;
  const member = await findMember(tx, workspace.id, actor);
  if (member !== null && !member.accessVia) return member;
  // P24: a person admitted by a group acts only while they hold it (a lost group: no longer theirs to decide).
  const admission = await admitByGroup(tx, platforms.get(actor.platform)?.groups, {
    platform: actor.platform,
    teamId: 'externalId' in actor.workspace ? actor.workspace.externalId : null,
    senderId: actor.senderId,
    workspaceId: workspace.id,
    sender: member,
    access: await tx.accessGroups.listForWorkspace(workspace.id),
  });
  return admission.ok ? admission.member : null;
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
