import { stringify } from 'yaml';
import type { SkillRecord } from '../../core/model/records';
import type { AgentDirectoryEntry } from '../../core/ports/workspace-directory';

/**
 * `AGENTS.md`: front matter with the agent's attributes (A4), then its persona and
 * instructions as prose. Null attributes are left out rather than written as `null`.
 */
export function renderAgentMarkdown({ agent, reportsTo }: AgentDirectoryEntry): string {
  const frontMatter = withoutNulls({
    name: agent.name,
    title: agent.title,
    reportsTo,
    adapter: agent.adapterId ?? 'builtin',
    model: agent.modelId,
    effort: agent.effort,
    contextSize: agent.contextSize,
    silenceTimeoutMinutes: agent.silenceTimeoutMinutes,
    skills: agent.skills.length > 0 ? agent.skills : null,
    avatarUrl: agent.avatarUrl,
    command: agent.command,
  });
  const sections = [
    `# ${agent.name}${agent.title ? ` — ${agent.title}` : ''}`,
    `## Persona\n\n${agent.persona.trim()}`,
  ];
  if (agent.systemPrompt) sections.push(`## Agent instructions\n\n${agent.systemPrompt.trim()}`);
  return `---\n${stringify(frontMatter).trimEnd()}\n---\n\n${sections.join('\n\n')}\n`;
}

/** `SKILL.md`: the front matter the harness loads into the prompt (A5), then the body. */
export function renderSkillMarkdown(skill: SkillRecord): string {
  const frontMatter = stringify({ name: skill.name, description: skill.description }).trimEnd();
  return `---\n${frontMatter}\n---\n\n${skill.body.trim()}\n`;
}

function withoutNulls(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== null && value !== undefined),
  );
}
