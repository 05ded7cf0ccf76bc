import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';

export type Confined = { ok: true; absolute: string } | { ok: false; reason: string };

/**
 * A path the model named, confined to the working directory: relative to it, never above
 * it, and not leading out of it through a symbolic link (the nearest existing ancestor's
 * real path must stay inside the working directory's real path, or inside one of
 * `linkedRoots`: the directories an overlay working directory links to, M9).
 */
export async function confinePath(
  workingDir: string,
  requested: string,
  linkedRoots: readonly string[] = [],
): Promise<Confined> {
  // The agent's folder exists once seeded; a fresh one is created rather than failing the call.
  await mkdir(workingDir, { recursive: true });
  const root = await realpath(workingDir);
  // M9: an overlay's links into the space's checkouts (and the agent's own folder) stay inside.
  const roots = [root, ...(await Promise.all(linkedRoots.map((r) => realpath(r).catch(() => null))))].filter(
    (r): r is string => r !== null,
  );
  const absolute = path.resolve(root, requested);
  if (!isInside(root, absolute)) {
    return { ok: false, reason: `Refused: ${requested} is outside your working directory.` };
  }
  let existing = absolute;
  for (;;) {
    try {
      const real = await realpath(existing);
      if (!roots.some((r) => isInside(r, real))) {
        return {
          ok: false,
          reason: `Refused: ${requested} leads outside your working directory through a symbolic link.`,
        };
      }
      return { ok: true, absolute };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = path.dirname(existing);
      if (parent === existing) return { ok: true, absolute };
      existing = parent;
    }
  }
}

const isInside = (root: string, candidate: string): boolean => {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};
