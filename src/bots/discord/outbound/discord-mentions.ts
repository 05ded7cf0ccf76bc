import { findCodeRanges } from '../../../core/mentions';

/** A workspace member with a linked Discord account. */
export interface DiscordMember {
  nickname: string;
  discordUserId: string;
}

/** Discord's `allowed_mentions`: who a post may ping. */
export interface AllowedMentions {
  parse: [];
  users: string[];
}

const NICKNAME = /(^|[^\w<@])@([A-Za-z0-9][A-Za-z0-9_.-]*)/g;

/**
 * M11, P7: an agent's `@nickname` of a member becomes a Discord user mention, and only those
 * members may be pinged: `allowed_mentions` parses nothing, so `@everyone`, `@here`, role
 * mentions and user mentions the agent wrote by hand never ping. Code is left as written.
 */
export function mentionMembers(
  text: string,
  members: readonly DiscordMember[],
): { content: string; allowedMentions: AllowedMentions } {
  const byNickname = new Map(members.map((m) => [m.nickname.toLowerCase(), m.discordUserId]));
  const code = findCodeRanges(text);
  const inCode = (index: number) => code.some((range) => index >= range.start && index < range.end);
  const users = new Set<string>();
  const content = text.replace(NICKNAME, (whole, lead: string, nickname: string, offset: number) => {
    const id = byNickname.get(nickname.toLowerCase());
    if (id === undefined || inCode(offset + lead.length)) return whole;
    users.add(id);
    return `${lead}<@${id}>`;
  });
  return { content, allowedMentions: { parse: [], users: [...users] } };
}

/** M11: the nicknames an agent's text writes as `@nickname` (outside code or not): whom `mentionMembers` asks about. */
export function writtenNicknames(text: string): string[] {
  return [...new Set([...text.matchAll(NICKNAME)].map(([, , nickname = '']) => nickname.toLowerCase()))];
}

/** The user ids a person's Discord text mentions (`<@…>`, `<@!…>`): whom `translateUserMentions` asks about. */
export function mentionedUserIds(text: string): string[] {
  return [...new Set([...text.matchAll(/<@!?([0-9]{1,20})>/g)].map(([, id = '']) => id))];
}

/** Nobody is pinged (cards, system messages). */
export const NO_MENTIONS: AllowedMentions = { parse: [], users: [] };

/**
 * Inbound text as the core reads it: a user mention reads `@nickname` for a member, the
 * Discord display name otherwise; the bot's own mention and its managed role's are dropped
 * (they are how people address Summon, not an agent; P12 reads them as a summons).
 */
export function translateUserMentions(
  text: string,
  options: {
    botUserId: string;
    members: readonly DiscordMember[];
    names: ReadonlyMap<string, string>;
    /** P12: the bot's managed roles, dropped like its own mention. */
    appRoleIds?: readonly string[];
  },
): string {
  const byId = new Map(options.members.map((m) => [m.discordUserId, m.nickname]));
  const appRoles = new Set(options.appRoleIds ?? []);
  return text
    .replace(/<@&([0-9]{1,20})>/g, (whole, id: string) => (appRoles.has(id) ? '' : whole))
    .replace(/<@!?([0-9]{1,20})>/g, (whole, id: string) => {
      if (id === options.botUserId) return '';
      const name = byId.get(id) ?? options.names.get(id);
      return name === undefined ? whole : `@${name}`;
    })
    .replace(/^[ \t]+/, '')
    .replace(/[ \t]{2,}/g, ' ');
}
