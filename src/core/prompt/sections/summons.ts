import type { PromptSection } from '../composed-prompt';
import type { PromptRoster, RosterAgent, Summoner } from '../prompt-input';
import { oneLine } from '../text';
import { section } from './section';

export interface SummonsOptions {
  self: string;
  summoner: Summoner;
  roster: PromptRoster;
  agentHandoffTools: boolean;
}

function summonedBy(summoner: Summoner): string {
  return summoner.kind === 'person'
    ? `You were summoned by ${summoner.nickname} (person).`
    : `You were summoned by the agent ${summoner.name}.`;
}

function agentLine(agent: RosterAgent): string {
  const title = oneLine(agent.title);
  const place = agent.reportsTo === null ? 'top-level' : `child, reports to ${agent.reportsTo}`;
  return `- ${agent.name}${title ? ` (${title})` : ''}: ${place}`;
}

/**
 * M13: who summoned the agent and whom it can hand work to, with the rules of an agent's
 * mentions (M14–M22) and, when the runner has them, the handoff tools (M23).
 */
export function summonsSection(options: SummonsOptions): PromptSection {
  const { self, summoner, roster } = options;
  // M13, M22: the roster lists the *other* agents; names compare case-insensitively.
  const others = roster.agents.filter((agent) => agent.name.toLowerCase() !== self.toLowerCase());
  const lines = [summonedBy(summoner), '', 'Agents in this space:'];
  lines.push(...(others.length > 0 ? others.map(agentLine) : ['- none besides you']));
  lines.push('People in this space:');
  lines.push(
    ...(roster.people.length > 0 ? roster.people.map((p) => `- ${p.nickname} (${p.role})`) : ['- none']),
  );
  lines.push(
    '',
    // M13, M14: a mention in the reply wakes the agent, which gets the reply as its prompt.
    'Mentioning another agent by @name in your reply wakes that agent when your turn ends: it joins this conversation and gets your reply as its prompt.',
    // M15, M16, M19: stricter rules for an agent's mentions.
    'Write the exact name outside code: a prefix, or a mention in backticks or a code block, reaches nobody, and a reply that names more than three agents wakes none of them.',
    // M13, M22
    `Mentioning yourself (@${self}) is ignored.`,
  );
  if (summoner.kind === 'agent') {
    // M20: no A → B → A.
    lines.push(
      `A mention does not wake an agent already in the chain that led to this turn, such as ${summoner.name}.`,
    );
  }
  if (options.agentHandoffTools) {
    // M23
    lines.push(
      'For a handoff that must not depend on text (a request that needs an answer, or an agent outside this space), use the tools send_to_agent, ask_agent or delegate_task instead of a mention.',
    );
  }
  return section('summons', 'Summons', lines.join('\n'));
}
