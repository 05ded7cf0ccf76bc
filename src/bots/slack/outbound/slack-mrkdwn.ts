import { findCodeRanges } from '../../../core/mentions';

/** A member's nickname and Slack account, for M11's real mentions. */
export interface SlackMemberRef {
  nickname: string;
  slackUserId: string | null;
}

const WRITTEN_NICKNAME = /(^|[^\w@])@([a-z0-9][a-z0-9_.-]*)/gi;

/**
 * An agent's text as Slack mrkdwn. Slack reads `<…>` as control sequences, so `&`, `<` and `>`
 * are escaped: `<!channel>`, `<!here>`, `<!everyone>` and a raw `<@U…>` written by an agent show
 * as text and notify nobody. Then M11: an `@nickname` of a member with a linked Slack account
 * (outside code) becomes a real `<@U…>` mention.
 */
export function agentTextToMrkdwn(text: string, members: readonly SlackMemberRef[]): string {
  const escaped = escapeMrkdwn(text);
  const linked = new Map(
    members.flatMap((m) =>
      m.slackUserId === null ? [] : [[m.nickname.toLowerCase(), m.slackUserId] as const],
    ),
  );
  if (linked.size === 0) return escaped;
  const code = findCodeRanges(escaped);
  const inCode = (index: number) => code.some((r) => index >= r.start && index < r.end);
  return escaped.replace(WRITTEN_NICKNAME, (whole, before: string, name: string, offset: number) => {
    const userId = linked.get(name.toLowerCase());
    if (userId === undefined || inCode(offset + before.length)) return whole;
    return `${before}<@${userId}>`;
  });
}

/** M11: the nicknames an agent's text writes as `@nickname`, folded, each once: whom `agentTextToMrkdwn` may mention. */
export function writtenNicknames(text: string): string[] {
  return [...new Set([...text.matchAll(WRITTEN_NICKNAME)].map(([, , name = '']) => name.toLowerCase()))];
}

export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The user ids a person's Slack text mentions (`<@U…>`, `<@U…|name>`), each once: whom `slackTextToPlain` asks about. */
export function slackMentionedUsers(text: string): string[] {
  const ids = new Set<string>();
  for (const [, inner = ''] of text.matchAll(/<@([^<>|]*)(?:\|[^<>]*)?>/g)) if (inner !== '') ids.add(inner);
  return [...ids];
}

/**
 * A person's Slack text as the core reads it (P2: "platform markup is already translated"):
 * `<@U…>` becomes `@nickname` (the bot's own mention is dropped), channels and links become
 * their labels, and Slack's escapes are undone.
 */
export function slackTextToPlain(
  text: string,
  context: { botUserId: string | null; nicknameOf: (userId: string) => string | null },
): string {
  const translated = text.replace(/<([^<>]*)>/g, (_whole, inner: string) => {
    const [target = '', label] = inner.split('|', 2);
    if (target.startsWith('@')) {
      const userId = target.slice(1);
      if (userId === context.botUserId) return '';
      const nickname = context.nicknameOf(userId);
      return nickname === null ? `@${label ?? userId}` : `@${nickname}`;
    }
    if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
    if (target.startsWith('!')) return `@${(label ?? target.slice(1)).replace(/^@/, '')}`;
    return label ?? target;
  });
  return translated.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/^\s+/, '');
}
