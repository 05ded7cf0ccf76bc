import { ValidationError } from '../errors';
import { type ComposedPrompt, type PromptSection, renderSections, SECTION_ORDER } from './composed-prompt';
import { fitHistory } from './history-window';
import type { HistoryMessage, PromptAgent, PromptInput } from './prompt-input';
import { agentInstructionsSection } from './sections/agent-instructions';
import { attachmentsSection } from './sections/attachments';
import { CONVERSATION_TITLE, conversationSection, renderHistoryMessage } from './sections/conversation';
import { loadedSkillsSection } from './sections/loaded-skills';
import { personaSection } from './sections/persona';
import { promptSection } from './sections/prompt';
import { skillsSection } from './sections/skills';
import { spaceSection } from './sections/space';
import { summonsSection } from './sections/summons';
import { DEFAULT_CONTEXT_TOKENS, estimateTokens, HISTORY_SHARE } from './token-estimate';

function contextTokens(agent: PromptAgent): number {
  if (agent.contextSize === null) return DEFAULT_CONTEXT_TOKENS;
  if (!Number.isFinite(agent.contextSize) || agent.contextSize <= 0) {
    throw new ValidationError(`agent "${agent.name}" has an invalid contextSize`, [
      { path: 'agent.contextSize', message: 'must be a positive number of tokens, or null for the default' },
    ]);
  }
  return Math.floor(agent.contextSize);
}

/** Oldest first, by `at`; the sort is stable, so messages with the same time keep their order. */
function chronological(history: readonly HistoryMessage[]): HistoryMessage[] {
  return [...history].sort((a, b) => a.at.getTime() - b.at.getTime());
}

function byOrder(a: PromptSection, b: PromptSection): number {
  return SECTION_ORDER.indexOf(a.id) - SECTION_ORDER.indexOf(b.id);
}

/**
 * Composes one turn's prompt (A4, A5, M13, N11, N12, P13). Pure and deterministic: the result
 * depends only on `input`, and only on the fields `PromptInput` names.
 */
export function composePrompt(input: PromptInput): ComposedPrompt {
  const { agent } = input;
  const fixed = [
    personaSection(agent),
    agentInstructionsSection(agent),
    skillsSection(agent, input.skills),
    summonsSection({
      self: agent.name,
      summoner: input.summoner,
      roster: input.roster,
      agentHandoffTools: input.tools?.agentHandoff === true,
    }),
    spaceSection(input.space),
    loadedSkillsSection(input.loadedSkills ?? []),
    promptSection(input.prompt, input.note),
    attachmentsSection(input.attachments ?? []),
  ].filter((s): s is PromptSection => s !== null);

  // The conversation gets what is left of its share of the window once the rest is counted.
  const headingOverhead = `\n\n## ${CONVERSATION_TITLE}\n\n`;
  const restTokens = estimateTokens(renderSections(fixed) + headingOverhead);
  const budgetTokens = Math.max(0, Math.floor(contextTokens(agent) * HISTORY_SHARE) - restTokens);

  const lines = chronological(input.history).map(renderHistoryMessage);
  const window = fitHistory(lines, budgetTokens);
  const sections = [...fixed];
  if (lines.length > 0) sections.push(conversationSection(window.notice, window.kept));
  sections.sort(byOrder);

  return {
    sections,
    system: renderSections(sections.filter((s) => s.target === 'system')),
    prompt: renderSections(sections.filter((s) => s.target === 'prompt')),
    history: { included: window.kept.length, omitted: window.omitted, budgetTokens },
  };
}
