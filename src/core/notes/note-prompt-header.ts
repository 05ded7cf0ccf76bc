import { type NoteSender, oneLine } from './note-sender';

/**
 * N11: the receiving agent is told the prompt came from an agent, that people here will
 * not answer it, and that its reply goes back to the asking agent.
 */
export const NOTE_REPLY_NOTICE =
  'This prompt comes from another agent, not from a person, and people here will not answer it. ' +
  'Your reply goes back to the agent that asked, which waits for it or reads it later, ' +
  'so end with the result that agent needs.';

/**
 * N12: the line a note's prompt begins with; the chat does not show it (the badge carries
 * the same data). Unknown parts are left out:
 * `[Remote prompt from an agent on relay "build-box" · session "nightly digest" · claude-sonnet-5 · acting for the user]`
 */
export function notePromptHeader(sender: NoteSender): string {
  const relayName = headerText(sender.relayName);
  const relay = relayName ? `on relay "${relayName}"` : sender.paired ? 'on a paired relay' : 'on this relay';
  const session = headerText(sender.sessionTitle);
  const parts = [
    `Remote prompt from an agent ${relay}`,
    session ? `session "${session}"` : undefined,
    headerText(sender.modelId),
    'acting for the user',
  ];
  return `[${parts.filter((part) => part !== undefined).join(' · ')}]`;
}

/** N11, N12: the header line and the notice, as the prompt's first lines. */
export function notePromptPreamble(sender: NoteSender): string {
  return `${notePromptHeader(sender)}\n${NOTE_REPLY_NOTICE}`;
}

/** The whole prompt the receiving agent gets: preamble, blank line, the note's text. */
export function composeNotePrompt(sender: NoteSender, prompt: string): string {
  return `${notePromptPreamble(sender)}\n\n${prompt}`;
}

/**
 * Titles and names come from another agent and are untrusted: they are kept on one line and
 * cannot close a quote or the bracketed line early.
 */
function headerText(text: string | null | undefined): string | undefined {
  return oneLine(text)?.replace(/"/g, "'").replace(/\[/g, '(').replace(/\]/g, ')');
}
