import type { Speaker } from '../../../core/ports/chat-platform';
import type { SlackContent } from './slack-cards';

/** P2: an agent posts under its own name and avatar, never as the bot. */
export function identity(as: Speaker): Record<string, string> {
  if (as.kind === 'system') return {};
  return as.avatarUrl === null ? { username: as.name } : { username: as.name, icon_url: as.avatarUrl };
}

/** A post's text, and its blocks when it has them. */
export function asArgs(content: SlackContent): Record<string, unknown> {
  return content.blocks === undefined
    ? { text: content.text }
    : { text: content.text, blocks: content.blocks };
}
