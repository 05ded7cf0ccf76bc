import type { NoteSource } from '../../../core/ports/chat-platform';
import { escapeMrkdwn } from './slack-mrkdwn';

/**
 * N1–N3, P4: a note's context badge in mrkdwn. It names the source conversation by its title and
 * links it with Slack's permalink of that thread (`chat.getPermalink`,
 * https://api.slack.com/methods/chat.getPermalink) while it exists; otherwise it is plain text.
 * Folded it is just `in <title>`; open (N2's longer form) it also says who sent the note.
 * Null when there is nothing to show.
 */
export function noteBadge(source: NoteSource, open: boolean, permalink: string | null): string | null {
  const title = source.title === null ? null : `“${escapeMrkdwn(source.title)}”`;
  // N3: a note from a paired relay links to the sending session there, when its address is known.
  const target = permalink ?? source.url ?? null;
  const link = target === null ? null : safeLink(target);
  let where: string | null = null;
  if (link !== null) where = `<${link}|${title ?? 'source conversation'}>`;
  else if (title !== null) where = title;
  const sender = `from *${escapeMrkdwn(source.sender)}*`;
  if (open) return where === null ? sender : `${sender} in ${where}`;
  return where === null ? null : `in ${where}`;
}

/** Only an http(s) URL with nothing that would end Slack's `<url|text>` early. */
function safeLink(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  } catch {
    return null;
  }
  return /[<>|\s]/.test(url) ? null : url.replace(/&/g, '&amp;');
}
