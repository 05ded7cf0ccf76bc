const MAX_LENGTH = 39;
/** Room a number added to a nickname may take (`-9999999`). */
const NUMBER_ROOM = 8;

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
 * P24, M10: the first `count` nicknames to offer, in order: `base`, then with a number added
 * (`base-2`, `base-3`…), skipping those `taken` holds (lower case: nicknames differ ignoring
 * case). Each starts with `base`, cut to make room for its number.
 */
export function nicknameCandidates(base: string, taken: ReadonlySet<string>, count: number): string[] {
  const offered: string[] = [];
  for (let n = 1; offered.length < count; n++) {
    const suffix = n === 1 ? '' : `-${n}`;
    const candidate = `${base.slice(0, MAX_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) offered.push(candidate);
  }
  return offered;
}

/**
 * What every nickname `nicknameCandidates` offers for `base` starts with (the base cut to
 * leave room for a number): the nicknames to know about before offering more.
 */
export const nicknameStem = (base: string): string => base.slice(0, MAX_LENGTH - NUMBER_ROOM);
