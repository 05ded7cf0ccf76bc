export { composePrompt } from './compose-prompt';
export {
  type ComposedPrompt,
  type HistoryFit,
  type PromptSection,
  renderComposedPrompt,
  renderSection,
  renderSections,
  SECTION_ORDER,
  SECTION_TARGET,
  type SectionId,
  type SectionTarget,
} from './composed-prompt';
export { fitHistory, type HistoryWindow, omittedNotice } from './history-window';
export type {
  HistoryAuthor,
  HistoryMessage,
  LoadedSkill,
  NoteOrigin,
  PromptAgent,
  PromptAttachment,
  PromptInput,
  PromptRoster,
  PromptSkill,
  PromptSpace,
  RosterAgent,
  RosterPerson,
  Summoner,
} from './prompt-input';
export { noteHeader, THIS_RELAY } from './sections/note-header';
export { MODE_MEANINGS } from './sections/space';
export {
  CHARS_PER_TOKEN,
  DEFAULT_CONTEXT_TOKENS,
  estimateTokens,
  HISTORY_SHARE,
} from './token-estimate';
