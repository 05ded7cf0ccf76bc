import { EngineApprovalsSlot } from '../adapters/git-gateway/engine-approvals-slot';
import { RunCredentials } from '../adapters/git-gateway/run-credentials';
import { PrometheusMetrics } from '../adapters/metrics/prometheus-metrics';
import { createProcessLauncher } from '../adapters/sandbox/create-process-launcher';
import type { ProcessLauncher } from '../adapters/sandbox/process-launcher';
import { FileWorkspaceDirectory } from '../adapters/workspace-directory/file-workspace-directory';
import { type Config, databaseDir, workspacesDir } from '../config/config';
import { LiveCardBoard } from '../core/engine/cards/live-card-board';
import { systemClock } from '../core/ports/clock';
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
  /** G3: per-run git gateway credentials (`runGitEnvironment` issues them for a run). */
  runCredentials: RunCredentials;
  /** G4: the running turn engine attaches here, so the git gateway can post approval cards. */
  engineApprovals: EngineApprovalsSlot;
  /** O5: the cards of the turns this process runs, which the web console shows live. */
  liveCards: LiveCardBoard;
  /**
   * G3: the port the HTTP server was bound to, once it listens (`PORT=0` takes any free port):
   * where runs reach the git gateway on this machine.
   */
  listening: { port: number | null };
  /** X1–X4: starts agents' processes (bash, CLI agents), confined unless SUMMON_SANDBOX=off. */
  launcher: ProcessLauncher;
  /** What this process counts, served at `/metrics` (prom-client, one registry per runtime). */
  metrics: PrometheusMetrics;
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
    // W1: `github` routines are refused unless GitHub's deliveries can reach this deployment.
    workspaces: new WorkspaceService(database.store, directory, systemClock, {
      github: config.github.webhookSecret !== undefined,
    }),
    directory,
    runCredentials: new RunCredentials(database.store, systemClock),
    engineApprovals: new EngineApprovalsSlot(),
    liveCards: new LiveCardBoard(systemClock, logger.child({ component: 'console' })),
    listening: { port: null },
    launcher: createProcessLauncher(config.sandbox),
    metrics: new PrometheusMetrics(),
    close: () => database.close(),
  };
}
