import type { ThreadId } from '../../../core/ports/chat-platform';
import { decodeSlackThreadId } from '../slack-thread-id';

/** Permalinks kept per source thread (they do not change); bounded so a long run stays small. */
const PERMALINK_CACHE_SIZE = 500;

/** N3: threads' permalinks (`chat.getPermalink` of their first message), kept once Slack gave them. */
export class SlackThreadLinks {
  private readonly links = new Map<ThreadId, string>();

  constructor(private readonly permalink?: (channel: string, messageTs: string) => Promise<string | null>) {}

  /** The thread's permalink, while Slack knows it; null without a way to ask or when Slack has none. */
  async of(thread: ThreadId): Promise<string | null> {
    if (this.permalink === undefined) return null;
    const cached = this.links.get(thread);
    if (cached !== undefined) return cached;
    const parts = decodeSlackThreadId(thread);
    if (parts === null) return null;
    const link = await this.permalink(parts.channel, parts.threadTs);
    if (link !== null) {
      if (this.links.size >= PERMALINK_CACHE_SIZE) {
        const oldest = this.links.keys().next().value;
        if (oldest !== undefined) this.links.delete(oldest);
      }
      this.links.set(thread, link);
    }
    return link;
  }
}
