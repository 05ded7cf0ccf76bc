import type { ParticipantRef, SpaceFields } from '../model/records';
import type { StoreTx } from '../ports/store';
import { type ChangeReport, changedFields, sameValue } from './change-report';
import type { ChannelEntry, SpaceEntry } from './workspace-file-schema';

/**
 * Spaces are merged by name. Inside a space, a list that the file gives (participants,
 * repos, channels) is taken as the whole list; a list left out is kept.
 */
export async function applySpaces(
  tx: StoreTx,
  workspaceId: string,
  entries: readonly SpaceEntry[],
  report: ChangeReport,
): Promise<void> {
  for (const entry of entries) {
    const label = `space ${entry.name}`;
    let space = await tx.spaces.findByName(workspaceId, entry.name);
    const patch = spacePatch(entry);
    if (space === null) {
      space = await tx.spaces.insert(workspaceId, { ...SPACE_DEFAULTS, name: entry.name, ...patch });
      report.created.push(label);
    } else {
      const changed = changedFields(space, patch);
      if (Object.keys(changed).length > 0) {
        await tx.spaces.update(space.id, changed);
        report.updated.push(label);
      }
    }
    const participantsChanged = await applyParticipants(tx, workspaceId, space.id, entry.participants);
    const channelsChanged = await applyChannels(tx, workspaceId, space.id, entry.channels);
    const reposChanged = await applyRepoChannels(tx, workspaceId, space.id, patch.repos ?? space.repos);
    if (
      (participantsChanged || channelsChanged || reposChanged) &&
      !report.created.includes(label) &&
      !report.updated.includes(label)
    )
      report.updated.push(label);
  }
}

const SPACE_DEFAULTS: Omit<SpaceFields, 'name'> = {
  context: '',
  mode: 'chat',
  autonomy: 'actWithApproval', // G2b: the default dial
  dedicated: false, // P3: channels are shared with people unless said otherwise
  whileRunning: 'steer', // P16: a message while a built-in turn runs joins it
  repos: [],
};

function spacePatch(entry: SpaceEntry): Partial<SpaceFields> {
  const patch: Partial<SpaceFields> = {};
  if (entry.context !== undefined) patch.context = entry.context;
  if (entry.mode !== undefined) patch.mode = entry.mode;
  if (entry.autonomy !== undefined) patch.autonomy = entry.autonomy;
  if (entry.dedicated !== undefined) patch.dedicated = entry.dedicated;
  if (entry.whileRunning !== undefined) patch.whileRunning = entry.whileRunning;
  if (entry.repos !== undefined) patch.repos = entry.repos;
  return patch;
}

/** M12: a name an agent takes is never offered to the member list. */
async function applyParticipants(
  tx: StoreTx,
  workspaceId: string,
  spaceId: string,
  names: readonly string[] | undefined,
): Promise<boolean> {
  if (names === undefined) return false;
  const wanted: ParticipantRef[] = [];
  for (const name of names) {
    const agent = await tx.agents.findByName(workspaceId, name);
    if (agent) {
      wanted.push({ kind: 'agent', agentId: agent.id });
      continue;
    }
    const member = await tx.members.findByNickname(workspaceId, name);
    if (member) wanted.push({ kind: 'member', memberId: member.id });
  }
  if (sameValue(await tx.spaces.listParticipants(spaceId), wanted)) return false;
  await tx.spaces.setParticipants(spaceId, wanted);
  return true;
}

/**
 * P19: a space's repositories are its channels on GitHub (`owner/name`, lower-cased: GitHub's
 * names ignore case). A repository belongs to one space: a later space listing it takes it.
 */
async function applyRepoChannels(
  tx: StoreTx,
  workspaceId: string,
  spaceId: string,
  repos: readonly string[],
): Promise<boolean> {
  const wanted = [...new Set(repos.map((repo) => repo.toLowerCase()))];
  const current = (await tx.channelBindings.listForWorkspace(workspaceId)).filter(
    (b) => b.spaceId === spaceId,
  );
  const github = current.filter((b) => b.platform === 'github').map((b) => b.channelId);
  const missing = wanted.filter((repo) => !github.includes(repo));
  const stale = github.filter((repo) => !wanted.includes(repo));
  if (missing.length === 0 && stale.length === 0) return false;
  for (const repo of missing) await tx.channelBindings.bind(spaceId, 'github', repo);
  const keep = current.filter((b) => b.platform !== 'github' || wanted.includes(b.channelId));
  await tx.channelBindings.unbindOthers(spaceId, [
    ...keep.map((b) => ({ platform: b.platform, channelId: b.channelId })),
    ...missing.map((repo) => ({ platform: 'github' as const, channelId: repo })),
  ]);
  return true;
}

/** The file speaks for Slack and Discord channels; other bindings (the terminal) are kept. */
async function applyChannels(
  tx: StoreTx,
  workspaceId: string,
  spaceId: string,
  channels: readonly ChannelEntry[] | undefined,
): Promise<boolean> {
  if (channels === undefined) return false;
  const wanted = channels.map((c) =>
    'slack' in c
      ? { platform: 'slack' as const, channelId: c.slack }
      : { platform: 'discord' as const, channelId: c.discord },
  );
  const current = (await tx.channelBindings.listForWorkspace(workspaceId)).filter(
    (b) => b.spaceId === spaceId,
  );
  const isWanted = (b: { platform: string; channelId: string }) =>
    wanted.some((w) => w.platform === b.platform && w.channelId === b.channelId);
  const kept = current.filter((b) => b.platform === 'terminal' || b.platform === 'github' || isWanted(b));
  const missing = wanted.filter(
    (w) => !current.some((b) => b.platform === w.platform && b.channelId === w.channelId),
  );
  if (missing.length === 0 && kept.length === current.length) return false;
  for (const channel of missing) await tx.channelBindings.bind(spaceId, channel.platform, channel.channelId);
  await tx.channelBindings.unbindOthers(
    spaceId,
    [...kept, ...missing].map((b) => ({ platform: b.platform, channelId: b.channelId })),
  );
  return true;
}
