import type { AgentRecord, SkillRecord } from '../model/records';
import type { LockEntry, SkillSources } from '../model/skills/skill-lock';

/** What an agent's folder is written from: its record plus names the record holds as ids. */
export interface AgentDirectoryEntry {
  agent: AgentRecord;
  reportsTo: string | null;
}

/**
 * A3: the workspace data directory. Agents are also folders (`agents/<slug>/AGENTS.md`, with
 * their skills linked under `.agents/skills/`), and skills are `skills/<slug>/SKILL.md`.
 * Writes are idempotent: writing again rewrites the files and links.
 */
export interface WorkspaceDirectory {
  /** An inline skill's `SKILL.md`; an installed skill (A6: in `skills-lock.json`) is left as installed. */
  writeSkill(workspaceSlug: string, skill: SkillRecord): Promise<void>;
  /** A6: the installed skills, as `skills-lock.json` pins them. */
  installedSkills(workspaceSlug: string): Promise<Record<string, LockEntry>>;
  /** A6: the registered skill sources and the review agent (`skill-sources.json`). */
  readSkillSources(workspaceSlug: string): Promise<SkillSources>;
  writeSkillSources(workspaceSlug: string, sources: SkillSources): Promise<void>;
  writeAgent(workspaceSlug: string, entry: AgentDirectoryEntry): Promise<void>;
  /** Absolute path of an agent's folder. */
  agentDir(workspaceSlug: string, agentName: string): string;
}
