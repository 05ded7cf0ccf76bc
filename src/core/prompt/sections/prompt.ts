import type { PromptSection } from '../composed-prompt';
import type { NoteOrigin } from '../prompt-input';
import { noteHeader, noteReplyRule } from './note-header';
import { section } from './section';

const NO_TEXT = '(The message has no text besides the mention.)';

/** The prompt itself. N12: a note's header and reply rule open it; they are prompt, not chat. */
export function promptSection(prompt: string, note: NoteOrigin | undefined): PromptSection {
  const text = prompt.trim() || NO_TEXT;
  const body = note === undefined ? text : `${noteHeader(note)}\n${noteReplyRule(note)}\n\n${text}`;
  return section('prompt', 'Prompt', body);
}
