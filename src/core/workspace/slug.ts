import path from 'node:path';
import { ValidationError } from '../errors';

/**
 * Slugs name workspaces, agents, members, spaces and skills, and become directory names in
 * the data directory (A3): lower-case letters, digits, `_` and `-` only, so `..` and `/`
 * can never appear.
 */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const SLUG_RULE =
  'must be a slug: 1-63 lower-case letters, digits, "_" or "-", starting with a letter or digit';

export const isSlug = (value: string): boolean => SLUG_PATTERN.test(value);

export function assertSlug(value: string, what: string): string {
  if (!isSlug(value))
    throw new ValidationError(`${what} "${value}" ${SLUG_RULE}`, [{ path: what, message: SLUG_RULE }]);
  return value;
}

/** M6: people can only mention `\w+`; a name with `-` is allowed but people cannot reach it in full. */
export const isMentionableByPeople = (name: string): boolean => /^\w+$/.test(name);

/**
 * Joins segments under a root and checks the result stays inside it: the last line of
 * defence, after slug validation, against a path that escapes the data directory.
 */
export function pathInside(root: string, ...segments: string[]): string {
  const resolvedRoot = path.resolve(root);
  const target = path.resolve(resolvedRoot, ...segments);
  if (target !== resolvedRoot && !target.startsWith(resolvedRoot + path.sep)) {
    throw new ValidationError(`path ${target} escapes ${resolvedRoot}`);
  }
  return target;
}
