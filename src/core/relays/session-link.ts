import type { Platform } from '../model/platform';
import type { ChatPlatform } from '../ports/chat-platform';
import type { Store } from '../ports/store';

/** What the badge's address answers a browser with (N3). */
export type SessionLink =
  | { kind: 'redirect'; url: string }
  | { kind: 'page'; text: string }
  | { kind: 'missing'; text: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * N3, R2: `<public-url>/relay/v1/sessions/<id>`, the address a paired relay's badge links to,
 * is opened by a person's browser, unsigned. It answers with a redirect to the session's
 * thread on this relay's chat platform (Slack's permalink), whose own access control decides
 * who sees it; where the platform has no link (the terminal, a thread gone), a plain page
 * naming the session by its title and relay, nothing more — the title the note already
 * carried to the other relay. Never a message, a member or a space.
 */
export async function sessionLink(
  deps: { store: Store; platforms: ReadonlyMap<Platform, ChatPlatform>; relayName: string | null },
  id: string,
): Promise<SessionLink> {
  const own = deps.relayName ?? 'this relay';
  const missing: SessionLink = { kind: 'missing', text: `That session is not on relay ${own} (any more).\n` };
  if (!UUID.test(id)) return missing;
  const conversation = await deps.store.transaction((tx) => tx.conversations.findById(id));
  if (conversation === null) return missing;
  const platform = deps.platforms.get(conversation.platform);
  const url =
    conversation.threadId === null || platform?.threadLink === undefined
      ? null
      : await platform.threadLink(conversation.threadId);
  if (url !== null) return { kind: 'redirect', url };
  return {
    kind: 'page',
    text: `Session "${conversation.title}" on relay ${own}. It has no link to open (${conversation.platform}); a member of relay ${own} finds it there.\n`,
  };
}
