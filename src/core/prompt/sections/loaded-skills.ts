import type { PromptSection } from '../composed-prompt';
import type { LoadedSkill } from '../prompt-input';
import { section } from './section';

/** A5: bodies loaded by `/skill:<name>` are instructions for this turn, just before the prompt. */
export function loadedSkillsSection(loaded: readonly LoadedSkill[]): PromptSection | null {
  if (loaded.length === 0) return null;
  const parts = [
    "Loaded with /skill: in this turn's message. Follow these instructions for this turn's work.",
    ...loaded.map((skill) => `### ${skill.name}\n\n${skill.body.trim()}`),
  ];
  return section('loaded-skills', 'Skill instructions for this turn', parts.join('\n\n'));
}
