import { NotFoundError } from '../errors';
import { entryOfSpec } from '../mcp/mcp-server-entry';
import type {
  AgentRecord,
  ChannelBindingRecord,
  GuardrailRuleRecord,
  MemberRecord,
  SkillRecord,
  SpaceRecord,
} from '../model/records';
import type { LockEntry, SkillSources } from '../model/skills/skill-lock';
import type { StoreTx } from '../ports/store';
import { routineEntryOf } from '../routines/routine-entry';
import { accessEntryOf } from './access-entries';
import { installedSource } from './apply-workspace-file';
import { budgetEntryOf } from './budget-entries';
import type {
  AgentEntry,
  ChannelEntry,
  GuardrailEntry,
  MemberEntry,
  SkillEntry,
  SpaceEntry,
  WorkspaceFile,
} from './workspace-file-schema';

/**
 * `summon export`: the workspace's current state in the workspace-file format, complete
 * enough that applying it changes nothing (apply ∘ export is the identity). Unset optional
 * attributes are left out rather than written as nulls.
 */
export async function exportWorkspace(
  tx: StoreTx,
  slug: string,
  skillsOnDisk: { installed: Record<string, LockEntry>; sources: SkillSources } = {
    installed: {},
    sources: { sources: [] },
  },
): Promise<WorkspaceFile> {
  const workspace = await tx.workspaces.findBySlug(slug);
  if (workspace === null)
    throw new NotFoundError(`no workspace "${slug}"; create it with \`summon workspace create ${slug}\``);
  const id = workspace.id;

  const [bindings, members, agents, skills, spaces, channels, rules] = [
    await tx.platformBindings.listForWorkspace(id),
    await tx.members.list(id),
    await tx.agents.list(id),
    await tx.skills.list(id),
    await tx.spaces.list(id),
    await tx.channelBindings.listForWorkspace(id),
    await tx.guardrails.list(id),
  ];
  const names: NameMaps = {
    agent: new Map(agents.map((a) => [a.id, a.name])),
    member: new Map(members.map((m) => [m.id, m.nickname])),
    space: new Map(spaces.map((s) => [s.id, s.name])),
  };

  const slack = bindings.find((b) => b.platform === 'slack');
  const discord = bindings.find((b) => b.platform === 'discord');
  const file: WorkspaceFile = { workspace: workspace.slug, name: workspace.name };
  if (slack) file.slack = { teamId: slack.externalId };
  if (discord) file.discord = { guildId: discord.externalId };
  // P24: people admitted by a group are not written (the group admits them); an explicit entry is.
  file.members = members.filter((member) => !member.accessVia).map(memberEntry);
  // P24: as given; left out when there is none, as a file without `access` is written.
  const access = await tx.accessGroups.listForWorkspace(id);
  if (access.length > 0) file.access = access.map(accessEntryOf);
  file.agents = agents.map((agent) => agentEntry(agent, names.agent));
  file.skills = skills.map((skill) => skillEntry(skill, skillsOnDisk.installed));
  file.spaces = await spaceEntries(tx, spaces, channels, names);
  file.guardrails = rules.flatMap((rule) => guardrailEntry(rule, names));
  file.sandbox = { allowedDomains: [...workspace.allowedDomains] };
  file.skillSources = skillsOnDisk.sources.sources;
  if (skillsOnDisk.sources.review !== undefined) file.skillReview = skillsOnDisk.sources.review;
  // O3: written even when empty, so applying the export leaves no budget behind.
  file.budgets = workspace.budgets.map(budgetEntryOf);
  // N15, R1: which paired relays are accepted and how; the keys never leave the database.
  const relays = await tx.relays.settings(workspace.id);
  file.relays = {
    acceptRemoteAgentPrompts: relays.acceptRemoteAgentPrompts,
    accept: relays.accepted.map((a) => ({ relay: a.relay, level: a.level })),
  };
  await exportMcpServers(tx, id, file, names);
  // W1: each space's routines, when it has any (a space without the key keeps what it has).
  const routines = await tx.routines.listForWorkspace(id);
  for (const entry of file.spaces ?? []) {
    const own = routines.filter((r) => r.space === entry.name);
    if (own.length > 0) entry.routines = own.map(routineEntryOf);
  }
  return file;
}

/**
 * E1, E2: the declared servers as written (references unexpanded, empty lists left out) and
 * each space's and agent's, in the order given; nothing is written when none is declared.
 */
async function exportMcpServers(
  tx: StoreTx,
  workspaceId: string,
  file: WorkspaceFile,
  names: NameMaps,
): Promise<void> {
  const servers = await tx.mcpServers.listForWorkspace(workspaceId);
  if (servers.length === 0) return;
  file.mcpServers = servers.map((record) => entryOfSpec(record.spec));
  const assigned = await tx.mcpServers.assignments(workspaceId);
  const given = (match: (a: { spaceId: string | null; agentId: string | null }) => boolean) =>
    assigned.filter(match).map((a) => a.server);
  for (const entry of file.spaces ?? []) {
    const list = given((a) => a.spaceId !== null && names.space.get(a.spaceId) === entry.name);
    if (list.length > 0) entry.mcpServers = list;
  }
  for (const entry of file.agents ?? []) {
    const list = given((a) => a.agentId !== null && names.agent.get(a.agentId) === entry.name);
    if (list.length > 0) entry.mcpServers = list;
  }
}

/** Ids to names: the workspace file names agents, members and spaces, never their ids. */
interface NameMaps {
  agent: Map<string, string>;
  member: Map<string, string>;
  space: Map<string, string>;
}

function memberEntry(member: MemberRecord): MemberEntry {
  return {
    nickname: member.nickname,
    role: member.role,
    ...(member.slackUserId === null ? {} : { slack: member.slackUserId }),
    ...(member.discordUserId === null ? {} : { discord: member.discordUserId }),
    ...(member.githubLogin == null ? {} : { github: member.githubLogin }),
  };
}

/** A6: an installed skill is exported as its pin, never as inline text. */
function skillEntry(skill: SkillRecord, installed: Record<string, LockEntry>): SkillEntry {
  const pinned = installed[skill.name];
  return pinned === undefined
    ? { name: skill.name, description: skill.description, body: skill.body }
    : { name: skill.name, source: installedSource(skill.name, pinned) };
}

/** Each space with its participants (by name) and its channels, read one space after another. */
async function spaceEntries(
  tx: StoreTx,
  spaces: readonly SpaceRecord[],
  channels: readonly ChannelBindingRecord[],
  names: NameMaps,
): Promise<SpaceEntry[]> {
  const entries: SpaceEntry[] = [];
  for (const space of spaces) {
    const participants = (await tx.spaces.listParticipants(space.id)).map((p) =>
      p.kind === 'agent' ? names.agent.get(p.agentId) : names.member.get(p.memberId),
    );
    entries.push({
      name: space.name,
      context: space.context,
      mode: space.mode,
      autonomy: space.autonomy,
      dedicated: space.dedicated,
      whileRunning: space.whileRunning,
      participants: participants.filter((name): name is string => name !== undefined),
      repos: space.repos,
      channels: channels.filter((c) => c.spaceId === space.id).flatMap(channelEntry),
    });
  }
  return entries;
}

/** A rule scoped to an agent or space that no longer exists is left out. */
function guardrailEntry(rule: GuardrailRuleRecord, names: NameMaps): GuardrailEntry[] {
  const scopeName =
    rule.scopeKind === 'agent' ? names.agent.get(rule.scopeId ?? '') : names.space.get(rule.scopeId ?? '');
  const scope = rule.scopeKind === 'workspace' ? 'workspace' : `${rule.scopeKind}:${scopeName}`;
  return rule.scopeKind !== 'workspace' && scopeName === undefined
    ? []
    : [
        {
          scope,
          action: rule.action,
          decision: rule.decision,
          ...(rule.tool == null ? {} : { tool: rule.tool }),
        },
      ];
}

function agentEntry(agent: AgentRecord, agentName: Map<string, string>): AgentEntry {
  const entry: AgentEntry = { name: agent.name, title: agent.title, persona: agent.persona };
  if (agent.systemPrompt !== null) entry.systemPrompt = agent.systemPrompt;
  entry.skills = agent.skills;
  entry.adapter = agent.adapterId ?? 'builtin';
  if (agent.modelId !== null) entry.model = agent.modelId;
  if (agent.effort !== null) entry.effort = agent.effort;
  if (agent.contextSize !== null) entry.contextSize = agent.contextSize;
  entry.silenceTimeoutMinutes = agent.silenceTimeoutMinutes;
  const superior = agent.reportsToId === null ? undefined : agentName.get(agent.reportsToId);
  if (superior !== undefined) entry.reportsTo = superior;
  if (agent.avatarUrl !== null) entry.avatarUrl = agent.avatarUrl;
  if (agent.command !== null) entry.command = agent.command;
  return entry;
}

/**
 * The workspace file speaks for Slack and Discord; terminal bindings are local and not exported,
 * GitHub's are the space's `repos` (P19).
 */
function channelEntry(binding: { platform: string; channelId: string }): ChannelEntry[] {
  if (binding.platform === 'slack') return [{ slack: binding.channelId }];
  if (binding.platform === 'discord') return [{ discord: binding.channelId }];
  return [];
}
