import type { SpaceMode } from '../../model/space';
import type { PromptSection } from '../composed-prompt';
import type { PromptSpace } from '../prompt-input';
import { oneLine } from '../text';
import { section } from './section';

/** What each mode means to the agent; plan and review are read-only. */
export const MODE_MEANINGS: Readonly<Record<SpaceMode, string>> = {
  chat: "Work on requests directly; you may change the space's repositories, and risky actions pass the action guardrails.",
  plan: 'Read-only: investigate and propose a plan; do not change files, commit or push.',
  review: 'Read-only: read the work and report what you find; do not change files, commit or push.',
};

/** M2: the agent is started with the space's context and mode. */
export function spaceSection(space: PromptSpace): PromptSection {
  const lines = [`Space: ${oneLine(space.name)}`, `Mode: ${space.mode}. ${MODE_MEANINGS[space.mode]}`];
  if (space.repos.length > 0) lines.push(`Repositories: ${space.repos.map(oneLine).join(', ')}`);
  const context = space.context.trim();
  if (context) lines.push('', 'Context:', context);
  return section('space', 'Space', lines.join('\n'));
}
