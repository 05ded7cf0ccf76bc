import type { PromptSection } from '../composed-prompt';
import type { PromptAgent } from '../prompt-input';
import { section } from './section';

/** A4: `systemPrompt` is inserted as its own section; it adds to the prompt, never replaces it. */
export function agentInstructionsSection(agent: PromptAgent): PromptSection | null {
  const instructions = agent.systemPrompt?.trim() ?? '';
  return instructions ? section('agent-instructions', 'Agent instructions', instructions) : null;
}
