import { lstat, mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { SkillRecord } from '../../core/model/records';
import type { LockEntry, SkillSources } from '../../core/model/skills/skill-lock';
import type { AgentDirectoryEntry, WorkspaceDirectory } from '../../core/ports/workspace-directory';
import { assertSlug, pathInside } from '../../core/workspace/slug';
import { FileSkillLibrary } from '../skill-sources/file-skill-library';
import { renderAgentMarkdown, renderSkillMarkdown } from './agent-markdown';
import { symlinkAtomic, writeFileAtomic } from './atomic-write';

/**
 * A3 on disk, under `$SUMMON_DATA_DIR/workspaces/<workspace>/`:
 *   agents/<agent>/AGENTS.md
 *   agents/<agent>/.agents/skills/<skill> -> ../../../../skills/<skill>
 *   skills/<skill>/SKILL.md
 * Every name is checked to be a slug and every path to stay inside the root.
 */
export class FileWorkspaceDirectory implements WorkspaceDirectory {
  private readonly library: FileSkillLibrary;

  constructor(private readonly root: string) {
    this.library = new FileSkillLibrary(root);
  }

  async installedSkills(workspaceSlug: string): Promise<Record<string, LockEntry>> {
    return (await this.library.readLock(workspaceSlug)).skills;
  }

  readSkillSources(workspaceSlug: string): Promise<SkillSources> {
    return this.library.readSources(workspaceSlug);
  }

  writeSkillSources(workspaceSlug: string, sources: SkillSources): Promise<void> {
    return this.library.writeSources(workspaceSlug, sources);
  }

  agentDir(workspaceSlug: string, agentName: string): string {
    return pathInside(
      this.root,
      assertSlug(workspaceSlug, 'workspace'),
      'agents',
      assertSlug(agentName, 'agent'),
    );
  }

  async writeSkill(workspaceSlug: string, skill: SkillRecord): Promise<void> {
    // A6: an installed skill's folder is what passed the check, pinned by its hash: never rewritten.
    if ((await this.installedSkills(workspaceSlug))[skill.name] !== undefined) return;
    const dir = this.skillDir(workspaceSlug, skill.name);
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(path.join(dir, 'SKILL.md'), renderSkillMarkdown(skill));
  }

  async writeAgent(workspaceSlug: string, entry: AgentDirectoryEntry): Promise<void> {
    const dir = this.agentDir(workspaceSlug, entry.agent.name);
    const linksDir = path.join(dir, '.agents', 'skills');
    await mkdir(linksDir, { recursive: true });
    await writeFileAtomic(path.join(dir, 'AGENTS.md'), renderAgentMarkdown(entry));

    const wanted = new Set(entry.agent.skills.map((skill) => assertSlug(skill, 'skill')));
    for (const skill of wanted) {
      // Relative, so the data directory can move or be mounted elsewhere (Docker volume).
      await symlinkAtomic(path.join('..', '..', '..', '..', 'skills', skill), path.join(linksDir, skill));
    }
    await this.removeStaleLinks(linksDir, wanted);
  }

  private skillDir(workspaceSlug: string, skillName: string): string {
    return pathInside(
      this.root,
      assertSlug(workspaceSlug, 'workspace'),
      'skills',
      assertSlug(skillName, 'skill'),
    );
  }

  /** A skill taken away from the agent loses its link; anything that is not a link is left alone. */
  private async removeStaleLinks(linksDir: string, wanted: Set<string>): Promise<void> {
    for (const name of await readdir(linksDir)) {
      if (wanted.has(name)) continue;
      const target = path.join(linksDir, name);
      if ((await lstat(target)).isSymbolicLink()) await unlink(target);
    }
  }
}
