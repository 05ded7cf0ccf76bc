/**
 * The composed prompt of one turn: ordered sections, each bound for the runner's system
 * prompt or for the user prompt of the turn.
 */

/** The fixed order of the sections (A4, A5, M13, N12, P13). Absent sections keep the others' order. */
export const SECTION_ORDER = [
  'persona',
  'agent-instructions',
  'skills',
  'summons',
  'space',
  'conversation',
  'loaded-skills',
  'prompt',
  'attachments',
] as const;
export type SectionId = (typeof SECTION_ORDER)[number];

/**
 * Sections that are the same from turn to turn go to the system prompt; those that change
 * with every turn (the conversation, `/skill:` bodies, the prompt) go to the user prompt.
 */
export type SectionTarget = 'system' | 'prompt';

export const SECTION_TARGET: Readonly<Record<SectionId, SectionTarget>> = {
  persona: 'system',
  'agent-instructions': 'system',
  skills: 'system',
  summons: 'system',
  space: 'system',
  conversation: 'prompt',
  'loaded-skills': 'prompt',
  prompt: 'prompt',
  attachments: 'prompt',
};

export interface PromptSection {
  id: SectionId;
  title: string;
  body: string;
  target: SectionTarget;
}

/** How the recent conversation was fitted into the agent's context window. */
export interface HistoryFit {
  /** Messages shown, the newest ones. */
  included: number;
  /** The oldest messages left out, each whole. */
  omitted: number;
  /** Estimated tokens the conversation section could use. */
  budgetTokens: number;
}

export interface ComposedPrompt {
  sections: readonly PromptSection[];
  /** The runner's system prompt: the `system` sections, rendered. */
  system: string;
  /** What the turn is asked: the `prompt` sections, rendered. */
  prompt: string;
  history: HistoryFit;
}

export function renderSection(section: PromptSection): string {
  return `## ${section.title}\n\n${section.body}`;
}

export function renderSections(sections: readonly PromptSection[]): string {
  return sections.map(renderSection).join('\n\n');
}

/** The whole prompt as one text, for a runner that has no separate system prompt. */
export function renderComposedPrompt(composed: ComposedPrompt): string {
  return [composed.system, composed.prompt].filter((part) => part.length > 0).join('\n\n');
}
