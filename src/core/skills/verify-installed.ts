import { skillChanged } from '../audit/audit-entries';
import { SYSTEM_ACTOR } from '../model/audit/audit-event';
import type { Logger } from '../ports/logger';
import type { SkillLibrary } from '../ports/skill-sources';
import type { Store } from '../ports/store';
import { skillContentHash } from './content-hash';

export interface RefusedSkill {
  workspace: string;
  name: string;
  reason: string;
  /** Where the refused folder was moved, when there was one. */
  movedTo: string | null;
}

/**
 * A6 at start: every installed skill's files are hashed against `skills-lock.json`. One that
 * no longer matches (edited, added to, or gone) is refused and reported: its folder leaves
 * `skills/` and its row is removed, so neither a prompt nor an agent's link reaches it
 * (the lock entry stays: `summon skills update <name>` brings the pinned source back).
 */
export async function verifyInstalledSkills(deps: {
  store: Store;
  library: SkillLibrary;
  logger: Logger;
}): Promise<RefusedSkill[]> {
  const refused: RefusedSkill[] = [];
  const workspaces = await deps.store.transaction((tx) => tx.workspaces.list());
  for (const workspace of workspaces) {
    const lock = await deps.library.readLock(workspace.slug);
    for (const [name, entry] of Object.entries(lock.skills)) {
      const files = await deps.library.readInstalled(workspace.slug, name);
      const reason =
        files === null
          ? 'its folder is gone'
          : skillContentHash(files) !== entry.contentHash
            ? `its files no longer match skills-lock.json (pinned ${entry.source}@${entry.commit.slice(0, 12)})`
            : null;
      if (reason === null) continue;
      const movedTo = files === null ? null : await deps.library.quarantine(workspace.slug, name);
      await deps.store.inWorkspace(workspace.id, async (tx) => {
        const row = await tx.skills.findByName(workspace.id, name);
        if (row !== null) await tx.skills.remove(row.id);
        const refused = { actor: SYSTEM_ACTOR, where: 'system' as const, reasons: [reason] };
        await tx.audit.append(workspace.id, skillChanged('skill_refused', name, refused)); // O4
      });
      deps.logger.error(
        { workspace: workspace.slug, skill: name, reason, movedTo },
        `installed skill "${name}" refused at start: ${reason}`,
      );
      refused.push({ workspace: workspace.slug, name, reason, movedTo });
    }
  }
  return refused;
}
