/** M10: the longest nickname an admitted person's record is given. */
export const NICKNAME_MAX_LENGTH = 39;

/** M10: how many nicknames a base gives: itself, then numbered `-2` … `-16`. */
export const NUMBERED_UP_TO = 16;

/**
 * P24, M10: the nicknames offered an admitted person, in order: `base`, then the base numbered
 * (`numberedNickname`, 2 … `NUMBERED_UP_TO`), then `account` (`<platform>-<user id>`). Only
 * these two are sent; `summon_admit_member` derives the numbered ones (migration
 * `AdmitMemberNumbers`) and, with all taken, makes one of the id.
 */
export interface NicknameOffer {
  base: string;
  account: string;
}

/** M10: the `n`th nickname `base` gives (1: the base), the base cut to make room for the number. */
export function numberedNickname(base: string, n: number): string {
  if (n === 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, NICKNAME_MAX_LENGTH - suffix.length)}${suffix}`;
}

/** M10: whether `folded` (lower case) is one of the nicknames `base` gives, case ignored; none made. */
export function givenBy(base: string, folded: string): boolean {
  if (base.toLowerCase() === folded) return true;
  const numbered = /-([1-9][0-9]?)$/.exec(folded);
  const n = Number(numbered?.[1]);
  return n >= 2 && n <= NUMBERED_UP_TO && numberedNickname(base, n).toLowerCase() === folded;
}

/** Every nickname `base` gives starts with the base cut this short (the longest number's room). */
const STEM_LENGTH = NICKNAME_MAX_LENGTH - `-${NUMBERED_UP_TO}`.length;

/**
 * M10: whether one of the nicknames `base` gives starts with `prefix` (folded), case ignored:
 * decided by the part all share when the prefix is no longer; else each is made and compared.
 */
export function givenStartingWith(base: string, prefix: string): boolean {
  const stem = base.slice(0, STEM_LENGTH).toLowerCase();
  if (prefix.length <= stem.length) return stem.startsWith(prefix);
  if (!prefix.startsWith(stem)) return false;
  for (let n = 1; n <= NUMBERED_UP_TO; n += 1)
    if (numberedNickname(base, n).toLowerCase().startsWith(prefix)) return true;
  return false;
}
