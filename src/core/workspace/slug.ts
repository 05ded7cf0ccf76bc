import path from 'node:path';
import { ValidationError } from '../errors';
import { isSlug, SLUG_RULE } from '../model/slug';

/** A3: `value` when it is a slug (`model/slug.ts`), else a validation error naming `what`. */
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
