import type { PromptSection } from '../composed-prompt';
import type { PromptAgent } from '../prompt-input';
import { oneLine } from '../text';
import { section } from './section';

/** A4: who the agent is; its persona is free text and always a section of its own. */
export function personaSection(agent: PromptAgent): PromptSection {
  const title = oneLine(agent.title);
  const identity = `You are the agent ${agent.name}${title ? ` (${title})` : ''} of this workspace.`;
  const persona = agent.persona.trim();
  return section('persona', 'Persona', persona ? `${identity}\n\n${persona}` : identity);
}
