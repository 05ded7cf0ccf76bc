import { type Client, Pool } from 'pg';
import { DataSource, type DataSourceOptions, MigrationExecutor } from 'typeorm';
import type { Logger } from '../core/ports/logger';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './naming-strategy';
import { openPglite, type PgliteConnection } from './pglite/open-pglite';
import { concurrentQueue, createSerialQueue, type SerialQueue } from './serial-queue';
import { oneQueryAtATimeOnEveryRunner } from './store/one-query-at-a-time';
import type { SqlStore } from './store/sql-store';
import { type InboxConnection, type NamedStatement, TypeormStore } from './store/typeorm-store';
import { HOT_STATEMENTS, warmConnections } from './store/warm-connections';
import { typeormLogger } from './typeorm-logger';

export type DatabaseKind = 'postgres' | 'pglite';

/** T4: PostgreSQL connections kept for the inbox writes acks wait for (besides TypeORM's pool). */
const INBOX_CONNECTIONS = 2;
/** PostgreSQL connections of the store's pool (node-postgres' default), kept open once made (T3). */
const POOL_CONNECTIONS = 10;

export interface OpenDatabaseOptions {
  /** `DATABASE_URL`: PostgreSQL when set, the embedded PGlite database otherwise. */
  databaseUrl?: string | undefined;
  /** Where the embedded database keeps its files (created if missing); unused for PostgreSQL. */
  dbDir: string;
  logger?: Logger;
  /**
   * An embedded database already open (on `dbDir`), to open this one over instead of starting
   * another engine; `close` closes it through its `close`. Test support reuses one engine for
   * several test databases this way.
   */
  pglite?: PgliteConnection;
  /**
   * Refuse a store transaction opened inside another (`nested_transaction`). Default: on for
   * PGlite, where one would wait forever for the single session; off for PostgreSQL, where the
   * check's cost (an `AsyncLocalStorage`: a hook on every promise of the process) is paid by
   * every turn (T3) and a nested transaction is a bug, not a hang. Test support turns it on for
   * both, so the suites catch one either way.
   */
  checkNesting?: boolean;
}

export interface Database {
  readonly kind: DatabaseKind;
  readonly store: SqlStore;
  /** For storage tooling and tests (schema diff); the rest of the application uses `store`. */
  readonly dataSource: DataSource;
  /** Runs every pending migration, each in its own transaction; returns their names. */
  migrate(): Promise<string[]>;
  /** Undoes the last migration run; returns its name, or null when none was run. */
  revert(): Promise<string | null>;
  pendingMigrations(): Promise<string[]>;
  close(): Promise<void>;
}

const baseOptions = (logger: Logger | undefined) => ({
  type: 'postgres' as const,
  entities: ENTITIES,
  migrations: MIGRATIONS,
  migrationsTransactionMode: 'each' as const,
  namingStrategy: new SnakeNamingStrategy(),
  // Never: the schema is whatever the hand-written migrations make it.
  synchronize: false,
  // gen_random_uuid() is built in (PG13+); no uuid-ossp, which PGlite would have to load.
  installExtensions: false,
  applicationName: 'summon',
  ...(logger ? { logger: typeormLogger(logger.child({ component: 'database' })), logging: true } : {}),
});

/** Opens (does not migrate) the database: PostgreSQL when `databaseUrl` is set, PGlite otherwise. */
export const openDatabase = async (options: OpenDatabaseOptions): Promise<Database> => {
  if (options.databaseUrl) {
    // T3: connections are kept once made (`min`: no idle timeout closes them), so a burst after a
    // lull finds them open with their statements prepared (`warmConnections` at an engine's start).
    const dataSource = new DataSource({
      ...baseOptions(options.logger),
      url: options.databaseUrl,
      poolSize: POOL_CONNECTIONS,
      extra: { min: POOL_CONNECTIONS },
    });
    await dataSource.initialize();
    // T2: a server that shuts down tells each session so (57P01); a session checked out between
    // statements, or just released as broken, has no listener then, and an error event without
    // one would end the process. Every connection of both pools keeps one for its whole life.
    const keepListening = (pool: Pool) =>
      pool.on('connect', (client: Client) => {
        client.on('error', (error) =>
          options.logger?.warn(
            { component: 'database', err: String(error) },
            'a database connection was lost',
          ),
        );
      });
    const master = (dataSource.driver as unknown as { master: Pool }).master;
    keepListening(master);
    // T4: the inbox writes an ack waits for have connections of their own, so a pool busy with
    // routing and turns never holds an ack up; two writes at once, what arrives meanwhile grouped.
    const inboxPool = new Pool({
      connectionString: options.databaseUrl,
      max: INBOX_CONNECTIONS,
      min: INBOX_CONNECTIONS,
      application_name: 'summon-inbox',
    });
    // An idle connection dropped (a restart): the pool forgets it and the next write reconnects.
    inboxPool.on('error', (error) =>
      options.logger?.warn({ component: 'database', err: String(error) }, 'an inbox connection was lost'),
    );
    keepListening(inboxPool);
    const inbox = {
      slots: INBOX_CONNECTIONS,
      // T4: a named statement, parsed and planned once per connection (pg prepares it again on
      // a new one). These connections run nothing else, so nothing deallocates it behind pg's back.
      query: async (statement: NamedStatement) =>
        (await inboxPool.query({ name: statement.name, text: statement.sql, values: [...statement.params] }))
          .rows,
    };
    return new TypeormDatabase('postgres', dataSource, concurrentQueue, () => inboxPool.end(), {
      inbox,
      checkNesting: options.checkNesting ?? false,
      warm: () => warmConnections(master, POOL_CONNECTIONS, HOT_STATEMENTS, options.logger),
    });
  }
  const pglite = options.pglite ?? (await openPglite(options.dbDir, { onUpkeep: upkeepLog(options.logger) }));
  const dataSourceOptions: DataSourceOptions = {
    ...baseOptions(options.logger),
    extra: pglite.poolConfig,
    poolSize: 1,
  };
  const dataSource = new DataSource(dataSourceOptions);
  try {
    await dataSource.initialize();
  } catch (error) {
    await pglite.close();
    throw error;
  }
  return new TypeormDatabase('pglite', dataSource, createSerialQueue(), () => pglite.close(), {
    checkNesting: options.checkNesting ?? true,
  });
};

/** The embedded database's upkeep (`PgliteUpkeep`): a finished round at debug, a failed one at warn. */
const upkeepLog =
  (logger: Logger | undefined) =>
  (error: string | null): void => {
    const log = logger?.child({ component: 'storage' });
    if (error === null) log?.debug({}, 'embedded database vacuumed and analyzed');
    else
      log?.warn(
        { err: error },
        'the embedded database could not be vacuumed and analyzed; tried again later',
      );
  };

class TypeormDatabase implements Database {
  readonly store: TypeormStore;
  private closing: Promise<void> | null = null;

  constructor(
    readonly kind: DatabaseKind,
    readonly dataSource: DataSource,
    private readonly queue: SerialQueue,
    private readonly closeEngine: () => Promise<void>,
    options: { inbox?: InboxConnection; checkNesting: boolean; warm?: () => Promise<void> },
  ) {
    oneQueryAtATimeOnEveryRunner(dataSource);
    this.store = new TypeormStore(dataSource, queue, () => this.close(), options);
  }

  migrate(): Promise<string[]> {
    return this.queue.run(async () => {
      const ran = await this.dataSource.runMigrations({ transaction: 'each' });
      return ran.map((m) => m.name);
    });
  }

  revert(): Promise<string | null> {
    return this.queue.run(async () => {
      const executor = new MigrationExecutor(this.dataSource);
      const before = new Set((await executor.getExecutedMigrations()).map((m) => m.name));
      if (before.size === 0) return null;
      await this.dataSource.undoLastMigration({ transaction: 'each' });
      const after = new Set((await executor.getExecutedMigrations()).map((m) => m.name));
      return [...before].find((name) => !after.has(name)) ?? null;
    });
  }

  pendingMigrations(): Promise<string[]> {
    return this.queue.run(async () =>
      (await new MigrationExecutor(this.dataSource).getPendingMigrations()).map((m) => m.name),
    );
  }

  /** Idempotent: the store's `close` and the owner's may both call it. */
  close(): Promise<void> {
    this.closing ??= this.queue.run(async () => {
      if (this.dataSource.isInitialized) await this.dataSource.destroy();
      await this.closeEngine();
    });
    return this.closing;
  }
}
