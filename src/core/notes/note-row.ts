import { type NoteSender, oneLine, relayLabel } from './note-sender';
import { formatNoteTime, type NoteTimeOptions } from './note-time';
import { NOTE_TURN_STATE_WORDS, type NoteTurnState } from './note-turn-state';

export interface NoteRowInput {
  sender: NoteSender;
  turnState?: NoteTurnState | null;
  /** When the note's prompt was sent. */
  sentAt?: Date | null;
}

/**
 * N5: a folded note is one row:
 * `note from build-box · report builder · answered below · 14:05`.
 * Unknown parts are left out (N2); the title is kept on one line.
 */
export function noteRowText(input: NoteRowInput, options: NoteTimeOptions = {}): string {
  const parts = [
    `note from ${relayLabel(input.sender)}`,
    oneLine(input.sender.sessionTitle),
    input.turnState ? NOTE_TURN_STATE_WORDS[input.turnState] : undefined,
    input.sentAt && !Number.isNaN(input.sentAt.getTime()) ? formatNoteTime(input.sentAt, options) : undefined,
  ];
  return parts.filter((part) => part !== undefined).join(' · ');
}
