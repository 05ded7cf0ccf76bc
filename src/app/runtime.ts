import { FileWorkspaceDirectory } from '../adapters/workspace-directory/file-workspace-directory';
import { type Config, databaseDir, workspacesDir } from '../config/config';
import type { Logger } from '../core/ports/logger';
import type { Store } from '../core/ports/store';
import type { WorkspaceDirectory } from '../core/ports/workspace-directory';
import { WorkspaceService } from '../core/workspace/workspace-service';
import { type Database, openDatabase } from '../storage/database';

/** The composition root: every dependency is built here and handed in, no singletons. */
export interface Runtime {
  config: Config;
  logger: Logger;
  database: Database;
  store: Store;
  workspaces: WorkspaceService;
  directory: WorkspaceDirectory;
  close(): Promise<void>;
}

/**
 * Opens the database and, unless told otherwise, brings its schema up to date: migrations
 * run at every start, so a fresh data folder or a new release needs no extra step.
 */
export async function openRuntime(
  config: Config,
  logger: Logger,
  options = { migrate: true },
): Promise<Runtime> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dbDir: databaseDir(config),
    logger,
  });
  if (options.migrate) {
    try {
      const ran = await database.migrate();
      if (ran.length > 0) logger.info({ migrations: ran, database: database.kind }, 'database migrated');
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  const directory = new FileWorkspaceDirectory(workspacesDir(config));
  return {
    config,
    logger,
    database,
    store: database.store,
    workspaces: new WorkspaceService(database.store, directory),
    directory,
    close: () => database.close(),
  };
}
