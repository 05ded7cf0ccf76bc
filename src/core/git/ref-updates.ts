import type { RefUpdate } from '../model/git-gateway';

/** The all-zero object id: "no object" (a created ref has it as old, a deleted ref as new). */
export const ZERO_ID = '0'.repeat(40);

export type RefUpdateKind = 'create' | 'update' | 'delete';

export const updateKind = (update: RefUpdate): RefUpdateKind =>
  update.oldId === ZERO_ID ? 'create' : update.newId === ZERO_ID ? 'delete' : 'update';

export const isTag = (update: RefUpdate): boolean => update.ref.startsWith('refs/tags/');

/** `refs/heads/main` → `main`, `refs/tags/v1` → `tag v1`. */
export function refLabel(ref: string): string {
  if (ref.startsWith('refs/heads/')) return ref.slice('refs/heads/'.length);
  if (ref.startsWith('refs/tags/')) return `tag ${ref.slice('refs/tags/'.length)}`;
  return ref;
}

/**
 * G4: an approval is bound to the exact repository and ref updates it was asked for; a push
 * with any other repository, ref, old or new id is a different push.
 */
export function sameUpdates(
  a: { repo: string; updates: readonly RefUpdate[] },
  b: { repo: string; updates: readonly RefUpdate[] },
): boolean {
  if (a.repo.toLowerCase() !== b.repo.toLowerCase() || a.updates.length !== b.updates.length) return false;
  const key = (u: RefUpdate) => `${u.ref}\0${u.oldId}\0${u.newId}`;
  const left = a.updates.map(key).sort();
  const right = b.updates.map(key).sort();
  return left.every((k, i) => k === right[i]);
}

const OBJECT_ID = /^[0-9a-f]{40}$/;

/** A ref update as git sends it: two object ids and a full ref name; null when malformed. */
export function parseRefUpdate(line: string): RefUpdate | null {
  const [oldId, newId, ref, ...rest] = line.trim().split(' ');
  if (oldId === undefined || newId === undefined || ref === undefined || rest.length > 0) return null;
  if (!OBJECT_ID.test(oldId) || !OBJECT_ID.test(newId) || !ref.startsWith('refs/')) return null;
  if (oldId === ZERO_ID && newId === ZERO_ID) return null;
  return { oldId, newId, ref };
}
