/**
 * Slugs name workspaces, agents, members, spaces and skills, and become directory names in
 * the data directory (A3): lower-case letters, digits, `_` and `-` only, so `..` and `/`
 * can never appear.
 */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const SLUG_RULE =
  'must be a slug: 1-63 lower-case letters, digits, "_" or "-", starting with a letter or digit';

export const isSlug = (value: string): boolean => SLUG_PATTERN.test(value);
