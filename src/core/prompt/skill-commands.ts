import type { SkillRecord } from '../model/records';
import type { LoadedSkill } from './prompt-input';

export interface SkillCommand {
  /** `/skill:<repo>:<name>`: a skill of a repo of the space (A7). */
  repo?: string;
  name: string;
}

const SKILL_COMMAND = /(?:^|\s)\/skill:([A-Za-z0-9_.-]+)(?::([A-Za-z0-9_.-]+))?/g;

/** A5: the `/skill:<name>` and `/skill:<repo>:<name>` commands of a message, first mention first, once each. */
export function skillCommands(text: string): SkillCommand[] {
  const seen = new Set<string>();
  const commands: SkillCommand[] = [];
  for (const match of text.matchAll(SKILL_COMMAND)) {
    const [, first, second] = match;
    if (first === undefined) continue;
    const command: SkillCommand = second === undefined ? { name: first } : { repo: first, name: second };
    const key = `${command.repo ?? ''}:${command.name}`.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    commands.push(command);
  }
  return commands;
}

/**
 * A5: the bodies a message's `/skill:` commands load for this turn, from the workspace's
 * skills (names match case-insensitively). A skill that cannot be found is loaded as a
 * sentence saying so, so the agent can tell the person instead of guessing.
 */
export function loadSkillCommands(
  text: string,
  workspaceSkills: readonly SkillRecord[],
  repoSkills: (repo: string, name: string) => SkillRecord | undefined = () => undefined,
): LoadedSkill[] {
  return skillCommands(text).map((command) => {
    const label = command.repo === undefined ? command.name : `${command.repo}:${command.name}`;
    const found =
      command.repo === undefined
        ? workspaceSkills.find((s) => s.name.toLowerCase() === command.name.toLowerCase())
        : repoSkills(command.repo, command.name);
    return found === undefined
      ? {
          name: label,
          body: `No skill "${label}" is installed here, so nothing was loaded. Tell the person, and name the skills you have.`,
        }
      : { name: label, body: found.body };
  });
}
