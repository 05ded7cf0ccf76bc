import { skillChanged } from '../audit/audit-entries';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../errors';
import type { WorkspaceRecord } from '../model/records';
import type { LockEntry, SkillSource } from '../model/skills/skill-lock';
import { isSlug, SLUG_RULE } from '../model/slug';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type {
  FetchedSkill,
  SkillFetcher,
  SkillLibrary,
  SkillReviewer,
  SourceListing,
} from '../ports/skill-sources';
import type { Store } from '../ports/store';
import { skillContentHash } from './content-hash';
import { REPO_PATTERN, skillPathIn, sourcePath } from './skill-lock';
import { type CheckedSkill, checkSkill } from './skill-review';
import { formatFinding } from './skill-verdict';

export interface SkillInstallerDeps {
  store: Store;
  fetcher: SkillFetcher;
  library: SkillLibrary;
  /** A6: the reviewer for the workspace's configured review agent (null: none can be built). */
  reviewerFor?: (workspace: WorkspaceRecord, agent: string) => Promise<SkillReviewer | null>;
  clock: Clock;
  logger: Logger;
}

export type InstallOutcome =
  | { status: 'installed' | 'updated'; name: string; entry: LockEntry; checked: CheckedSkill }
  | { status: 'refused'; name: string; commit: string; checked: CheckedSkill }
  | { status: 'unchanged'; name: string; entry: LockEntry };

/** `<owner>/<repo>/<skill>[@<ref>]`. */
export function parseSkillSpec(spec: string): { repo: string; name: string; ref?: string } {
  const [target = '', ref] = spec.split('@', 2);
  const parts = target.split('/');
  const name = parts.pop() ?? '';
  const repo = parts.join('/');
  if (!REPO_PATTERN.test(repo) || !isSlug(name))
    throw new ValidationError(
      `"${spec}" is not <owner>/<repo>/<skill>[@<ref>] (the skill name ${SLUG_RULE})`,
    );
  return ref === undefined || ref === '' ? { repo, name } : { repo, name, ref };
}

/**
 * A6: skills from registered GitHub sources. Fetch into a temporary folder, check, and only
 * on a passing verdict write `skills/<name>/`, its row and its `skills-lock.json` entry, in
 * one transaction (a failed file write rolls the row back). A refused or failed fetch writes
 * nothing; an update replaces nothing unless the new commit passes.
 */
export class SkillInstaller {
  constructor(private readonly deps: SkillInstallerDeps) {}

  async addSource(slug: string, source: SkillSource): Promise<boolean> {
    await this.workspace(slug);
    const sources = await this.deps.library.readSources(slug);
    if (sources.sources.some((s) => s.repo.toLowerCase() === source.repo.toLowerCase())) return false;
    await this.deps.library.writeSources(slug, { ...sources, sources: [...sources.sources, source] });
    return true;
  }

  async removeSource(slug: string, repo: string): Promise<boolean> {
    const sources = await this.deps.library.readSources(slug);
    const kept = sources.sources.filter((s) => s.repo.toLowerCase() !== repo.toLowerCase());
    if (kept.length === sources.sources.length) return false;
    await this.deps.library.writeSources(slug, { ...sources, sources: kept });
    return true;
  }

  async listSources(slug: string): Promise<SkillSource[]> {
    return (await this.deps.library.readSources(slug)).sources;
  }

  /** What each registered source offers (A6: its metadata is untrusted display data). */
  async search(slug: string, text?: string): Promise<SourceListing[]> {
    const listings: SourceListing[] = [];
    for (const source of await this.listSources(slug)) {
      const listing = await this.deps.fetcher.listSkills(source.repo, sourcePath(source), source.ref);
      const needle = text?.toLowerCase();
      const skills =
        needle === undefined
          ? listing.skills
          : listing.skills.filter(
              (s) => s.name.includes(needle) || (s.description ?? '').toLowerCase().includes(needle),
            );
      if (skills.length > 0 || needle === undefined) listings.push({ ...listing, skills });
    }
    return listings;
  }

  async install(slug: string, spec: string): Promise<InstallOutcome> {
    const workspace = await this.workspace(slug);
    const { repo, name, ref } = parseSkillSpec(spec);
    const source = await this.source(slug, repo);
    const lock = await this.deps.library.readLock(slug);
    const existing = await this.deps.store.inWorkspace(workspace.id, (tx) =>
      tx.skills.findByName(workspace.id, name),
    );
    if (existing !== null && lock.skills[name] === undefined)
      throw new ConflictError(
        `an inline skill "${name}" exists in the workspace file; remove it before installing one`,
      );
    if (lock.skills[name] !== undefined && lock.skills[name].source.toLowerCase() !== repo.toLowerCase())
      throw new ConflictError(`"${name}" is installed from ${lock.skills[name].source}; remove it first`);
    return this.fetchCheckWrite(
      workspace,
      source,
      name,
      ref ?? source.ref,
      lock.skills[name] ? 'updated' : 'installed',
    );
  }

  /** Every installed skill (or the one named): fetched at its source's ref, replaced only on a pass. */
  async update(slug: string, name?: string): Promise<InstallOutcome[]> {
    const workspace = await this.workspace(slug);
    const lock = await this.deps.library.readLock(slug);
    const names = name === undefined ? Object.keys(lock.skills).sort() : [name];
    const outcomes: InstallOutcome[] = [];
    for (const skill of names) {
      const entry = lock.skills[skill];
      if (entry === undefined)
        throw new NotFoundError(`no installed skill "${skill}" (see \`summon skills install\`)`);
      const source = await this.source(slug, entry.source);
      outcomes.push(await this.fetchCheckWrite(workspace, source, skill, source.ref, 'updated', entry));
    }
    return outcomes;
  }

  async remove(slug: string, name: string): Promise<void> {
    const workspace = await this.workspace(slug);
    const lock = await this.deps.library.readLock(slug);
    if (lock.skills[name] === undefined) throw new NotFoundError(`no installed skill "${name}"`);
    await this.deps.store.inWorkspace(workspace.id, async (tx) => {
      const row = await tx.skills.findByName(workspace.id, name);
      if (row !== null) await tx.skills.remove(row.id);
      await tx.audit.append(workspace.id, skillChanged('skill_removed', name, {})); // O4
      const { [name]: _removed, ...rest } = lock.skills;
      await this.deps.library.writeLock(slug, { ...lock, skills: rest });
      await this.deps.library.removeFiles(slug, name);
    });
  }

  /** `summon skills check <source>/<skill>`: fetched and checked, nothing written. */
  async checkRemote(slug: string, spec: string): Promise<{ commit: string; checked: CheckedSkill }> {
    const workspace = await this.workspace(slug);
    const { repo, name, ref } = parseSkillSpec(spec);
    const source = await this.source(slug, repo);
    const fetched = await this.deps.fetcher.fetchSkill(repo, skillPathIn(source, name), ref ?? source.ref);
    try {
      return { commit: fetched.commit, checked: await this.check(workspace, name, fetched) };
    } finally {
      await fetched.dispose();
    }
  }

  /** `summon skills check <path>`: a folder on disk, checked as an install would be. */
  async checkFolder(slug: string, dir: string, name: string): Promise<CheckedSkill> {
    const workspace = await this.workspace(slug);
    const files = await this.deps.library.readFolder(dir);
    return checkSkill(name, files, await this.review(workspace));
  }

  private async fetchCheckWrite(
    workspace: WorkspaceRecord,
    source: SkillSource,
    name: string,
    ref: string | undefined,
    done: 'installed' | 'updated',
    current?: LockEntry,
  ): Promise<InstallOutcome> {
    const fetched = await this.deps.fetcher.fetchSkill(source.repo, skillPathIn(source, name), ref);
    try {
      const contentHash = skillContentHash(fetched.files);
      if (current !== undefined && current.commit === fetched.commit && current.contentHash === contentHash) {
        // Unchanged only when the folder on disk is still what the lock pins (A6).
        const onDisk = await this.deps.library.readInstalled(workspace.slug, name);
        if (onDisk !== null && skillContentHash(onDisk) === contentHash)
          return { status: 'unchanged', name, entry: current };
      }
      const checked = await this.check(workspace, name, fetched);
      if (checked.verdict.verdict === 'fail') {
        this.deps.logger.warn(
          {
            workspace: workspace.slug,
            skill: name,
            repo: source.repo,
            commit: fetched.commit,
            reasons: checked.verdict.reasons,
          },
          'skill refused by the supply-chain check',
        );
        const refused = {
          source: source.repo,
          commit: fetched.commit,
          reasons: checked.verdict.reasons.map(formatFinding),
        };
        await this.deps.store.inWorkspace(
          workspace.id,
          (tx) => tx.audit.append(workspace.id, skillChanged('skill_refused', name, refused)), // O4
        );
        return { status: 'refused', name, commit: fetched.commit, checked };
      }
      const entry: LockEntry = {
        source: source.repo,
        path: fetched.path,
        commit: fetched.commit,
        contentHash,
        verdict: 'pass',
        ...(checked.reviewedBy === null ? {} : { reviewedBy: checked.reviewedBy }),
        checkedAt: this.deps.clock.now().toISOString(),
      };
      const skill = checked.report.skill;
      if (skill === null) throw new AppError('a passing skill has no front matter', 'internal');
      await this.deps.store.inWorkspace(workspace.id, async (tx) => {
        const row = await tx.skills.findByName(workspace.id, name);
        const fields = { description: skill.frontMatter.description, body: skill.body };
        if (row === null) await tx.skills.insert(workspace.id, { name, ...fields });
        else await tx.skills.update(row.id, fields);
        const installed = { source: source.repo, commit: entry.commit };
        await tx.audit.append(workspace.id, skillChanged('skill_installed', name, installed)); // O4
        const lock = await this.deps.library.readLock(workspace.slug);
        await this.deps.library.installFiles(workspace.slug, name, fetched.stagingDir);
        await this.deps.library.writeLock(workspace.slug, {
          ...lock,
          skills: { ...lock.skills, [name]: entry },
        });
      });
      this.deps.logger.info(
        { workspace: workspace.slug, skill: name, commit: entry.commit },
        `skill ${done}`,
      );
      return { status: done, name, entry, checked };
    } finally {
      await fetched.dispose();
    }
  }

  private async check(
    workspace: WorkspaceRecord,
    name: string,
    fetched: FetchedSkill,
  ): Promise<CheckedSkill> {
    return checkSkill(name, fetched.files, await this.review(workspace));
  }

  private async review(workspace: WorkspaceRecord) {
    const agent = (await this.deps.library.readSources(workspace.slug)).review?.agent;
    if (agent === undefined) return null;
    const reviewer = (await this.deps.reviewerFor?.(workspace, agent)) ?? null;
    // A6: a configured review that cannot run is no verdict: nothing is written.
    if (reviewer === null)
      throw new AppError(
        `the skill review agent "${agent}" cannot be reached; nothing was written`,
        'review_unavailable',
      );
    return { agent, reviewer };
  }

  private async source(slug: string, repo: string): Promise<SkillSource> {
    const source = (await this.listSources(slug)).find((s) => s.repo.toLowerCase() === repo.toLowerCase());
    if (source === undefined)
      throw new NotFoundError(
        `"${repo}" is not a skill source; register it with \`summon skills source add ${repo}\``,
      );
    return source;
  }

  private async workspace(slug: string): Promise<WorkspaceRecord> {
    const workspace = await this.deps.store.transaction((tx) => tx.workspaces.findBySlug(slug));
    if (workspace === null) throw new NotFoundError(`no workspace "${slug}"`);
    return workspace;
  }
}
