import type { NoteFoldState } from '../model/message';
import type { NoteTurnState } from './note-turn-state';

export type NoteDisplay = 'open' | 'folded';
export type NoteToggle = 'open' | 'fold';

/**
 * N9: while the turn works its note is open so people can follow; once it has answered,
 * failed or stopped the note folds itself, unless a person opened or folded it by hand.
 */
export function noteDisplay(foldState: NoteFoldState, turnState: NoteTurnState): NoteDisplay {
  if (foldState !== 'auto') return foldState;
  return turnState === 'working' ? 'open' : 'folded';
}

/**
 * N7, N9: a person opening or folding a note sets the stored state explicitly, whatever it
 * was, so later turn changes leave it as they left it. Only the display changes; nothing
 * is deleted.
 */
export function toggleNote(_current: NoteFoldState, action: NoteToggle): NoteFoldState {
  return action === 'open' ? 'open' : 'folded';
}
