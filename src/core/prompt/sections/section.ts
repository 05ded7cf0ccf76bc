import { type PromptSection, SECTION_TARGET, type SectionId } from '../composed-prompt';

/** A section bound to its fixed target (system or prompt). */
export function section(id: SectionId, title: string, body: string): PromptSection {
  return { id, title, body, target: SECTION_TARGET[id] };
}
