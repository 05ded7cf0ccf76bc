/** Agent notes (N1–N16): how a prompt from an agent is shown, folded and introduced. */
export { conversationMarker } from './conversation-marker';
export { notifiesOnFinish } from './finish-notification';
export { type FoldCandidate, mayFold } from './foldable';
export { type NoteDisplay, type NoteToggle, noteDisplay, toggleNote } from './note-fold';
export {
  composeNotePrompt,
  NOTE_REPLY_NOTICE,
  notePromptHeader,
  notePromptPreamble,
} from './note-prompt-header';
export { type NoteRowInput, noteRowText } from './note-row';
export { type NoteSender, oneLine, relayLabel } from './note-sender';
export { formatNoteTime, type NoteTimeOptions } from './note-time';
export {
  NOTE_TURN_STATE_WORDS,
  NOTE_TURN_STATES,
  type NoteTurnState,
  noteTurnStateOf,
} from './note-turn-state';
