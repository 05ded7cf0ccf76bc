import type { NoteSource } from '../../../core/ports/chat-platform';
import { decodeDiscordThreadId } from '../discord-thread-id';

/**
 * N1–N3, P4: a note's context badge in Discord markdown. It names the source conversation by
 * its title and, while that conversation exists as a guild thread, links it with Discord's
 * channel link `https://discord.com/channels/<guild>/<thread>` (a thread is a channel); a
 * direct-message conversation or an unknown one is plain text. Folded it is just `in <title>`;
 * open (N2's longer form) it also says who sent the note. Null when there is nothing to show.
 */
export function discordNoteBadge(source: NoteSource, open: boolean): string | null {
  const title = source.title === null ? null : `“${escapeMarkdown(source.title)}”`;
  // N3: a note from a paired relay links to the sending session there, when its address is known.
  const link = source.thread === null ? httpLink(source.url ?? null) : discordThreadLink(source.thread);
  let where: string | null = null;
  if (link !== null) where = `[${title ?? 'source conversation'}](${link})`;
  else if (title !== null) where = title;
  const sender = `from **${escapeMarkdown(source.sender)}**`;
  if (open) return where === null ? sender : `${sender} in ${where}`;
  return where === null ? null : `in ${where}`;
}

/** N3: a guild thread's channel link (a thread is a channel); null for a direct message or another id. */
export function discordThreadLink(thread: string): string | null {
  const parts = decodeDiscordThreadId(thread);
  // A direct message is one conversation in the DM channel itself: no guild link reaches it.
  if (parts === null || parts.channel === parts.thread) return null;
  return `https://discord.com/channels/${parts.guild}/${parts.thread}`;
}

function httpLink(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && !/[()\s]/.test(url) ? url : null;
  } catch {
    return null;
  }
}

/** Markdown that would change how a title shows (or end the link early) is escaped. */
function escapeMarkdown(text: string): string {
  return text.replace(/([\\[\]()*_~`|>#-])/g, '\\$1').replace(/\s+/g, ' ');
}
