import { NICKNAME_MAX_LENGTH as MAX_LENGTH, numberedNickname } from '../model/members/nickname-offer';

/**
 * P24, M10: the nickname a person admitted by a group would like: their platform name made a
 * slug (lower case; letters, digits, `_` and `-`), `<platform>-<user id>` when nothing of it is
 * left.
 */
export function admittedNicknameBase(
  displayName: string | null,
  who: { platform: string; senderId: string },
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
  return slug === '' ? `${who.platform}-${who.senderId}`.toLowerCase().slice(0, MAX_LENGTH) : slug;
}

/**
 * P24, M10: the first `count` nicknames `base` gives, in order: `base`, then with a number added
 * (`base-2`, `base-3`…), the base cut to make room for the number (`summon_admit_member` derives
 * the same on the server).
 */
export function nicknameCandidates(base: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => numberedNickname(base, i + 1));
}
