import type { NoteOrigin } from '../prompt-input';
import { oneLine } from '../text';

/** N5: a relay without a name is "this relay". */
export const THIS_RELAY = 'this relay';

/** A value quoted in the header stays on one line and cannot close its own quotes. */
function quoted(value: string): string {
  return `"${oneLine(value).replaceAll('"', "'")}"`;
}

function present(value: string | undefined): value is string {
  return value !== undefined && oneLine(value) !== '';
}

/**
 * N12: the first line of a prompt that another agent sent, e.g.
 * `[Remote prompt from an agent on relay "build-box" · session "nightly digest" · claude-sonnet-5 · acting for the user]`.
 * Unknown parts are left out (N2).
 */
export function noteHeader(note: NoteOrigin): string {
  const relay = present(note.relayName) ? `relay ${quoted(note.relayName)}` : THIS_RELAY;
  const parts = [`Remote prompt from an agent on ${relay}`];
  if (present(note.sessionTitle)) parts.push(`session ${quoted(note.sessionTitle)}`);
  if (present(note.model)) parts.push(oneLine(note.model));
  parts.push('acting for the user');
  return `[${parts.join(' · ')}]`;
}

/** N11: the reply goes back to the asking agent, so it should end with what that agent needs. */
export function noteReplyRule(note: NoteOrigin): string {
  return `This prompt was sent by the agent ${note.fromAgent}, not by a person. Your reply goes back to ${note.fromAgent}, so end it with the result ${note.fromAgent} needs.`;
}
