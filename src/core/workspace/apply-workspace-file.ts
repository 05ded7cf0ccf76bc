import { memberChanged, workspaceApplied } from '../audit/audit-entries';
import { ValidationError } from '../errors';
import type { MemberRecord, SkillRecord, WorkspaceRecord } from '../model/records';
import type { StoreTx } from '../ports/store';
import type { WorkspaceDirectory } from '../ports/workspace-directory';
import { applyRoutines, type RoutineReceivers, routineIssues } from '../routines/apply-routines';
import { applyAccess } from './access-entries';
import { applyAgents } from './apply-agents';
import { applyGuardrails } from './apply-guardrails';
import { applyMcpServers } from './apply-mcp-servers';
import { applySpaces } from './apply-spaces';
import { budgetOf, sameBudgets } from './budget-entries';
import { type ChangeReport, changedFields, emptyReport, hasChanges } from './change-report';
import { checkReferences } from './check-references';
import { ensureWorkspace } from './seed-workspace';
import type { WorkspaceFile } from './workspace-file-schema';
import { writeWorkspaceFiles } from './write-workspace-files';

/**
 * `summon apply`: creates or updates a workspace from its file, inside the caller's single
 * transaction. Every reference is checked before the first write; the agent folders are
 * rewritten last, so a failed file write rolls back every row (A3). `now` is when it applies:
 * a routine's `at` must lie ahead of it, and its next time counts from it (W1); `receivers` says
 * whether GitHub's deliveries reach this deployment (a `github` routine is refused without).
 */
export async function applyWorkspaceFile(
  tx: StoreTx,
  directory: WorkspaceDirectory,
  file: WorkspaceFile,
  now: Date,
  receivers: RoutineReceivers = { github: false },
): Promise<ChangeReport> {
  const before = await tx.workspaces.findBySlug(file.workspace);
  const issues = await checkReferences(tx, before?.id ?? null, file);
  issues.push(...(await routineIssues(tx, before?.id ?? null, file.spaces ?? [], now, receivers)));
  await checkInstalledSkills(directory, file, issues);
  await checkPlatformBindings(tx, before?.id ?? null, file, issues);
  if (issues.length > 0) throw new ValidationError(`workspace file was refused; nothing was written`, issues);

  const report = emptyReport();
  const { workspace, created } = await ensureWorkspace(tx, file.workspace, file.name);
  if (created) report.created.push(`workspace ${workspace.slug}`);
  else if (file.name !== undefined && file.name !== workspace.name) {
    await tx.workspaces.rename(workspace.id, file.name);
    report.updated.push(`workspace ${workspace.slug}`);
  }

  await applyPlatformBindings(tx, workspace.id, file, report);
  await applySkills(tx, workspace.id, file.skills ?? [], report);
  await applyMembers(tx, workspace.id, file.members ?? [], report);
  await applyAccess(tx, workspace.id, file.access, report);
  await applyAgents(tx, workspace.id, file.agents ?? [], report);
  await applySpaces(tx, workspace.id, file.spaces ?? [], report);
  await applyMcpServers(tx, workspace.id, file, report);
  await applyRoutines(tx, workspace.id, file.spaces ?? [], now, report);
  await applyGuardrails(tx, workspace.id, file.guardrails ?? [], report);
  await applySandbox(tx, workspace, file, report);
  await applySkillSources(directory, file, report);
  await applyBudgets(tx, workspace, file, report);
  await applyRelays(tx, workspace, file, report);
  // O4: what the apply changed, in its transaction: a failed apply leaves no event.
  if (hasChanges(report)) await tx.audit.append(workspace.id, workspaceApplied(workspace.slug, report));
  await writeWorkspaceFiles(tx, directory, workspace);
  return report;
}

/** P1: a Slack team or Discord guild belongs to exactly one workspace. */
async function checkPlatformBindings(
  tx: StoreTx,
  workspaceId: string | null,
  file: WorkspaceFile,
  issues: { path: string; message: string }[],
): Promise<void> {
  const wanted = [
    ...(file.slack ? [{ platform: 'slack' as const, id: file.slack.teamId, path: 'slack.teamId' }] : []),
    ...(file.discord
      ? [{ platform: 'discord' as const, id: file.discord.guildId, path: 'discord.guildId' }]
      : []),
  ];
  for (const { platform, id, path } of wanted) {
    const binding = await tx.platformBindings.find(platform, id);
    if (binding && binding.workspaceId !== workspaceId) {
      const owner = await tx.workspaces.findById(binding.workspaceId);
      issues.push({ path, message: `is already bound to workspace "${owner?.slug ?? binding.workspaceId}"` });
    }
  }
  for (const [i, space] of (file.spaces ?? []).entries()) {
    for (const [j, channel] of (space.channels ?? []).entries()) {
      const [platform, channelId] =
        'slack' in channel ? (['slack', channel.slack] as const) : (['discord', channel.discord] as const);
      const binding = await tx.channelBindings.find(platform, channelId);
      if (binding && binding.workspaceId !== workspaceId) {
        const owner = await tx.workspaces.findById(binding.workspaceId);
        issues.push({
          path: `spaces[${i}].channels[${j}]`,
          message: `is already bound in workspace "${owner?.slug ?? '?'}"`,
        });
      }
    }
  }
}

async function applyPlatformBindings(
  tx: StoreTx,
  workspaceId: string,
  file: WorkspaceFile,
  report: ChangeReport,
) {
  const current = await tx.platformBindings.listForWorkspace(workspaceId);
  const wanted = [
    ...(file.slack ? [{ platform: 'slack' as const, externalId: file.slack.teamId }] : []),
    ...(file.discord ? [{ platform: 'discord' as const, externalId: file.discord.guildId }] : []),
  ];
  for (const { platform, externalId } of wanted) {
    if (current.some((b) => b.platform === platform && b.externalId === externalId)) continue;
    await tx.platformBindings.bind(workspaceId, platform, externalId);
    report.updated.push(`${platform} binding ${externalId}`);
  }
}

async function applySkills(
  tx: StoreTx,
  workspaceId: string,
  entries: WorkspaceFile['skills'] & {},
  report: ChangeReport,
) {
  for (const entry of entries) {
    // A6: an installed skill is `summon skills`' to write; apply has checked its pin.
    if (entry.source !== undefined) continue;
    const existing = await tx.skills.findByName(workspaceId, entry.name);
    const patch: Partial<Pick<SkillRecord, 'description' | 'body'>> = {};
    if (entry.description !== undefined) patch.description = entry.description;
    if (entry.body !== undefined) patch.body = entry.body;
    if (existing === null) {
      await tx.skills.insert(workspaceId, { name: entry.name, description: '', body: '', ...patch });
      report.created.push(`skill ${entry.name}`);
    } else if (Object.keys(changedFields(existing, patch)).length > 0) {
      await tx.skills.update(existing.id, changedFields(existing, patch));
      report.updated.push(`skill ${entry.name}`);
    }
  }
}

async function applyMembers(
  tx: StoreTx,
  workspaceId: string,
  entries: WorkspaceFile['members'] & {},
  report: ChangeReport,
) {
  for (const entry of entries) {
    const existing = await tx.members.findByNickname(workspaceId, entry.nickname);
    const patch: Partial<
      Pick<
        MemberRecord,
        'role' | 'slackUserId' | 'discordUserId' | 'githubLogin' | 'accessVia' | 'accessViaName'
      >
    > = {};
    if (entry.role !== undefined) patch.role = entry.role;
    if (entry.slack !== undefined) patch.slackUserId = entry.slack;
    if (entry.discord !== undefined) patch.discordUserId = entry.discord;
    if (entry.github !== undefined) patch.githubLogin = entry.github;
    // P24: a person admitted by a group, now named in the file, is an explicit member (the entry wins).
    if (existing?.accessVia) Object.assign(patch, { accessVia: null, accessViaName: null });
    if (existing === null) {
      const added = await tx.members.insert(workspaceId, {
        nickname: entry.nickname,
        role: 'member',
        slackUserId: null,
        discordUserId: null,
        ...patch,
      });
      await tx.audit.append(workspaceId, memberChanged('member_added', added, { where: 'cli' })); // O4
      report.created.push(`member ${entry.nickname}`);
    } else if (Object.keys(changedFields(existing, patch)).length > 0) {
      await tx.members.update(existing.id, changedFields(existing, patch));
      if (patch.role !== undefined && patch.role !== existing.role) {
        const change = { where: 'cli' as const, from: existing.role };
        await tx.audit.append(
          workspaceId,
          memberChanged('member_role_changed', { ...existing, role: patch.role }, change),
        ); // O4
      }
      report.updated.push(`member ${entry.nickname}`);
    }
  }
}

/** X2: `sandbox.allowedDomains`, when given, replaces the list (order kept, duplicates dropped). */
async function applySandbox(
  tx: StoreTx,
  workspace: WorkspaceRecord,
  file: WorkspaceFile,
  report: ChangeReport,
) {
  const wanted = file.sandbox?.allowedDomains;
  if (wanted === undefined) return;
  const unique = [...new Set(wanted)];
  if (
    unique.length === workspace.allowedDomains.length &&
    unique.every((d, i) => d === workspace.allowedDomains[i])
  )
    return;
  await tx.workspaces.setAllowedDomains(workspace.id, unique);
  report.updated.push('sandbox allowedDomains');
}

/**
 * A6: a skill entry with `source` names an installed skill: it must be installed from that
 * source at that commit (apply never fetches); an inline entry must not shadow an installed one.
 */
async function checkInstalledSkills(
  directory: WorkspaceDirectory,
  file: WorkspaceFile,
  issues: { path: string; message: string }[],
): Promise<void> {
  const installed = await directory.installedSkills(file.workspace);
  for (const [i, entry] of (file.skills ?? []).entries()) {
    const pinned = installed[entry.name];
    if (entry.source === undefined) {
      if (pinned !== undefined)
        issues.push({
          path: `skills[${i}]`,
          message: `"${entry.name}" is an installed skill (from ${pinned.source}); give it as source: ${installedSource(entry.name, pinned)}`,
        });
      continue;
    }
    if (pinned === undefined || installedSource(entry.name, pinned) !== entry.source)
      issues.push({
        path: `skills[${i}].source`,
        message: `is not what is installed${pinned === undefined ? '' : ` (${installedSource(entry.name, pinned)})`}; install it with \`summon skills install ${entry.source}\``,
      });
  }
}

/** `<owner>/<repo>/<skill>@<commit>`, as export writes an installed skill. */
export function installedSource(name: string, pinned: { source: string; commit: string }): string {
  return `${pinned.source}/${name}@${pinned.commit}`;
}

/** A6: `skillSources` and `skillReview`, when given, replace what is registered. */
async function applySkillSources(directory: WorkspaceDirectory, file: WorkspaceFile, report: ChangeReport) {
  if (file.skillSources === undefined && file.skillReview === undefined) return;
  const current = await directory.readSkillSources(file.workspace);
  const next = {
    sources: file.skillSources ?? current.sources,
    ...((file.skillReview ?? current.review) === undefined
      ? {}
      : { review: file.skillReview ?? current.review }),
  };
  if (JSON.stringify(next) === JSON.stringify(current)) return;
  await directory.writeSkillSources(file.workspace, next as typeof current);
  report.updated.push('skill sources');
}

/** O3: `budgets`, when given, replaces the workspace's budgets (an empty list removes them). */
async function applyBudgets(
  tx: StoreTx,
  workspace: WorkspaceRecord,
  file: WorkspaceFile,
  report: ChangeReport,
) {
  if (file.budgets === undefined) return;
  const wanted = file.budgets.map(budgetOf);
  if (sameBudgets(wanted, workspace.budgets)) return;
  await tx.workspaces.setBudgets(workspace.id, wanted);
  report.updated.push('budgets');
}

/** N15, R1: `relays`, when given: the switch and the accepted relays (a list given replaces the list). */
async function applyRelays(
  tx: StoreTx,
  workspace: WorkspaceRecord,
  file: WorkspaceFile,
  report: ChangeReport,
) {
  if (file.relays === undefined) return;
  const current = await tx.relays.settings(workspace.id);
  const next = {
    acceptRemoteAgentPrompts: file.relays.acceptRemoteAgentPrompts ?? current.acceptRemoteAgentPrompts,
    accepted: file.relays.accept?.map((a) => ({ relay: a.relay, level: a.level })) ?? current.accepted,
  };
  if (JSON.stringify(next) === JSON.stringify(current)) return;
  await tx.relays.setSettings(workspace.id, next);
  report.updated.push('relays');
}
