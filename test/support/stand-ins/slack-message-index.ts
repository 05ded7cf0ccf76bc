import type { StoredSlackMessage } from './slack-web-api-stand-in';

/**
 * The stand-in's messages by channel and ts, so a call that names a message or a thread finds it
 * at once. A bench's run holds thousands of messages, and scanning them on every post cost the
 * bench's process more the longer it ran: more in the set-up measured second than in the first,
 * on CPUs the processes measured share. Tests push into `messages` directly, so the index
 * catches up with the array on every look-up; removals go through `forget`.
 */
export class SlackMessageIndex {
  private readonly byKey = new Map<string, StoredSlackMessage>();
  private indexed = 0;

  constructor(private readonly messages: StoredSlackMessage[]) {}

  find(channel: unknown, ts: unknown): StoredSlackMessage | undefined {
    if (typeof channel !== 'string' || typeof ts !== 'string') return undefined;
    if (this.messages.length < this.indexed) this.rebuild();
    for (; this.indexed < this.messages.length; this.indexed += 1) {
      const message = this.messages[this.indexed] as StoredSlackMessage;
      this.byKey.set(keyOf(message.channel, message.ts), message);
    }
    return this.byKey.get(keyOf(channel, ts));
  }

  /** Takes a message out of the array and the index alike. */
  forget(channel: string, ts: string): void {
    const found = this.find(channel, ts);
    if (found === undefined) return;
    this.messages.splice(this.messages.indexOf(found), 1);
    this.rebuild();
  }

  private rebuild(): void {
    this.byKey.clear();
    this.indexed = 0;
  }
}

function keyOf(channel: string, ts: string): string {
  return `${channel} ${ts}`;
}
