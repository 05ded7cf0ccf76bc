import type { MemberRecord } from '../model/records';

const MAX_LENGTH = 39;

/**
 * P24, M10: the nickname of a person admitted by a group: their platform name made a slug
 * (lower case; letters, digits, `_` and `-`), `<platform>-<user id>` when nothing of it is
 * left, and a number added until no member has it (nicknames differ ignoring case).
 */
export function admittedNickname(
  displayName: string | null,
  who: { platform: string; senderId: string },
  members: readonly Pick<MemberRecord, 'nickname'>[],
): string {
  const slug = (displayName ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, MAX_LENGTH)
    .replace(/[-_]+$/, '');
  const base = slug === '' ? `${who.platform}-${who.senderId}`.toLowerCase().slice(0, MAX_LENGTH) : slug;
  const taken = new Set(members.map((member) => member.nickname.toLowerCase()));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
