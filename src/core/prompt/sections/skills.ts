import type { PromptSection } from '../composed-prompt';
import type { PromptAgent, PromptSkill } from '../prompt-input';
import { oneLine } from '../text';
import { section } from './section';

const INTRO =
  "Your skills. Each one's full instructions are in its SKILL.md under `.agents/skills/` in your folder; read them when the work calls for the skill.";

/**
 * A5: the agent's skill names, each with its linked skill's front-matter description. The
 * names are a case-insensitive set (A4); a name with no linked skill is "(not installed)".
 */
export function skillsSection(agent: PromptAgent, linked: readonly PromptSkill[]): PromptSection | null {
  const byName = new Map(linked.map((skill) => [skill.name.toLowerCase(), skill]));
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const name of agent.skills) {
    const key = name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const skill = byName.get(key);
    if (skill === undefined) {
      lines.push(`- ${name} (not installed)`);
      continue;
    }
    const description = oneLine(skill.description);
    lines.push(description ? `- ${name}: ${description}` : `- ${name}`);
  }
  return lines.length > 0 ? section('skills', 'Skills', [INTRO, ...lines].join('\n')) : null;
}
