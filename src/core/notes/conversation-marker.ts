import { type NoteSender, oneLine } from './note-sender';

/**
 * N4: a conversation an agent created is marked `via agent · "title"` when the agent runs
 * on this relay (the title of the agent's own conversation, N2), or `↗ relay-name` when it
 * runs on a paired relay. Unknown parts are left out.
 */
export function conversationMarker(sender: NoteSender): string {
  if (sender.paired) return `↗ ${oneLine(sender.relayName) ?? 'a paired relay'}`;
  const title = oneLine(sender.sessionTitle);
  return title ? `via agent · "${title}"` : 'via agent';
}
