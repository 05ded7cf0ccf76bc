import type { AgentRecord, SkillRecord } from '../model/records';

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
  writeSkill(workspaceSlug: string, skill: SkillRecord): Promise<void>;
  writeAgent(workspaceSlug: string, entry: AgentDirectoryEntry): Promise<void>;
  /** Absolute path of an agent's folder. */
  agentDir(workspaceSlug: string, agentName: string): string;
}
