import type { WorkspaceRecord } from '../model/records';
import { type Clock, systemClock } from '../ports/clock';
import type { Store } from '../ports/store';
import type { WorkspaceDirectory } from '../ports/workspace-directory';
import type { RoutineReceivers } from '../routines/apply-routines';
import { applyWorkspaceFile } from './apply-workspace-file';
import type { ChangeReport } from './change-report';
import { exportWorkspace } from './export-workspace';
import { ensureWorkspace } from './seed-workspace';
import type { WorkspaceFile } from './workspace-file-schema';
import { writeWorkspaceFiles } from './write-workspace-files';

/** Workspace lifecycle: each operation is one transaction covering rows and files (A3). */
export class WorkspaceService {
  constructor(
    private readonly store: Store,
    private readonly directory: WorkspaceDirectory,
    private readonly clock: Clock = systemClock,
    /** W1: whether GitHub's deliveries reach this deployment (`github` routines are refused without). */
    private readonly receivers: RoutineReceivers = { github: false },
  ) {}

  /** Creates the workspace with its five agents (A11), or re-seeds it; rewrites its folders. */
  create(
    slug: string,
    name?: string,
  ): Promise<{ workspace: WorkspaceRecord; created: boolean; seededAgents: string[] }> {
    return this.store.transaction(async (tx) => {
      const result = await ensureWorkspace(tx, slug, name);
      await writeWorkspaceFiles(tx, this.directory, result.workspace);
      return result;
    });
  }

  apply(file: WorkspaceFile): Promise<ChangeReport> {
    return this.store.transaction((tx) =>
      applyWorkspaceFile(tx, this.directory, file, this.clock.now(), this.receivers),
    );
  }

  agentDir(workspaceSlug: string, agentName: string): string {
    return this.directory.agentDir(workspaceSlug, agentName);
  }

  export(slug: string): Promise<WorkspaceFile> {
    return this.store.transaction(async (tx) =>
      exportWorkspace(tx, slug, {
        installed: await this.directory.installedSkills(slug),
        sources: await this.directory.readSkillSources(slug),
      }),
    );
  }
}
