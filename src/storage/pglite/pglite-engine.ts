import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * One embedded PostgreSQL (PGlite, compiled to WASM) running in a worker thread and spoken to
 * in the PostgreSQL wire protocol.
 *
 * The worker keeps WASM query execution off the event loop that acknowledges Slack and
 * Discord events, and it runs PGlite outside jest's module sandbox, which refuses the dynamic
 * `import()` PGlite uses to load its WASM.
 */
export interface PgliteEngine {
  /** Sends complete frontend protocol messages; resolves with the backend's reply bytes. */
  exec(messages: Uint8Array): Promise<Uint8Array>;
  /** What the engine's own upkeep did so far (`PgliteUpkeep`). */
  readonly upkeep: UpkeepReport;
  /** Closes the database (flushing it to `dataDir`) and ends the worker. */
  close(): Promise<void>;
}

/**
 * PGlite has no autovacuum: without upkeep its planner never has statistics (every plan is made
 * for empty tables, whatever they hold) and its dead rows are never reclaimed (tables and indexes
 * only grow). The engine does what autovacuum would, `VACUUM (ANALYZE)` of every table, in a
 * round that starts once at least `requests` requests came since the last one started and at
 * least `share` of all it served (often while the database is young, then as its tables grow by
 * a share, as autovacuum's scale factors do). A round does one table between two requests, and
 * only where the session is idle (no transaction open): a request waits behind one table's
 * upkeep at most.
 */
export interface PgliteUpkeep {
  requests: number;
  share: number;
}

export const DEFAULT_UPKEEP: PgliteUpkeep = { requests: 2000, share: 0.2 };

export interface UpkeepReport {
  /** Rounds of `VACUUM (ANALYZE)` that completed. */
  runs: number;
  /** The last round's first failure, if one of its tables failed (the next round is tried as usual). */
  lastError: string | null;
}

type Request = { kind: 'exec'; bytes: Uint8Array } | { kind: 'close' };
/** A request's reply (`id` > 0), the engine's start (0), or an upkeep round's end (-1). */
type Reply = { id: number; bytes?: Uint8Array; error?: string };

/** An upkeep round's end, which answers no request. */
const UPKEEP_ID = -1;

/**
 * Plain CommonJS (no ESM syntax, so Node runs it as a script): one PGlite, one request at a
 * time, in arrival order.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pgliteModule);
const { assets, upkeep } = workerData;
const ready = PGlite.create({
  dataDir: workerData.dataDir,
  pgliteWasmModule: assets.pglite,
  initdbWasmModule: assets.initdb,
  fsBundle: new Blob([assets.bundle]),
});
let queue = ready;
// Upkeep runs only where the client left the session idle: its last reply ends with
// ReadyForQuery ('Z', length 5) whose status is 'I' (no transaction open). A round takes one
// table after each such reply, so a request waits behind one table's upkeep, not every table's.
let idle = true;
let served = 0;
let sinceUpkeep = 0;
/** The tables the round in progress has still to do; null between rounds. */
let round = null;
let roundError = null;
const TABLES = "SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c " +
  "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'm') " +
  "AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'";
const endsIdle = (bytes) => {
  const n = bytes.length;
  return n >= 6 && bytes[n - 6] === 0x5a && bytes[n - 2] === 5 && bytes[n - 5] === 0 && bytes[n - 1] === 0x49;
};
const failure = (error) => String((error && error.stack) || error);
const upkeepStep = async (db) => {
  if (round === null) {
    try {
      round = (await db.query(TABLES)).rows.map((row) => row.name);
      roundError = null;
    } catch (error) {
      parentPort.postMessage({ id: ${UPKEEP_ID}, error: failure(error) });
      return;
    }
  }
  const table = round.shift();
  if (table !== undefined) {
    try {
      await db.exec('VACUUM (ANALYZE) ' + table);
    } catch (error) {
      roundError = roundError || failure(error);
    }
  }
  if (round.length === 0) {
    round = null;
    parentPort.postMessage(roundError === null ? { id: ${UPKEEP_ID} } : { id: ${UPKEEP_ID}, error: roundError });
  }
};
parentPort.on('message', (request) => {
  queue = queue.then(async (db) => {
    try {
      if (request.kind === 'close') {
        await db.close();
        parentPort.postMessage({ id: request.id });
        return db;
      }
      const bytes = await db.execProtocolRaw(request.bytes);
      idle = endsIdle(bytes);
      served += 1;
      sinceUpkeep += 1;
      parentPort.postMessage({ id: request.id, bytes });
    } catch (error) {
      parentPort.postMessage({ id: request.id, error: failure(error) });
      return db;
    }
    if (!idle) return db;
    if (round === null) {
      if (sinceUpkeep < Math.max(upkeep.requests, upkeep.share * served)) return db;
      sinceUpkeep = 0;
    }
    await upkeepStep(db);
    return db;
  });
});
ready.then(
  () => parentPort.postMessage({ id: 0 }),
  (error) => parentPort.postMessage({ id: 0, error: String((error && error.stack) || error) }),
);
`;

/** PGlite's compiled WebAssembly and file-system bundle, shared by every engine of the process. */
interface PgliteAssets {
  /** `WebAssembly.Module`s (the project's TypeScript lib has no WebAssembly types). */
  pglite: object;
  initdb: object;
  bundle: Uint8Array;
}

const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } })
  .WebAssembly;

let assets: Promise<PgliteAssets> | undefined;

/**
 * Compiling PGlite's WebAssembly is most of what opening a database costs; a compiled module
 * is handed to each worker thread (structured clone shares it), so it is compiled once.
 */
const pgliteAssets = (): Promise<PgliteAssets> => {
  assets ??= (async () => {
    const dist = path.dirname(require.resolve('@electric-sql/pglite'));
    const [pglite, initdb, bundle] = await Promise.all([
      readFile(path.join(dist, 'pglite.wasm')).then((bytes) => wasm.compile(bytes)),
      readFile(path.join(dist, 'initdb.wasm')).then((bytes) => wasm.compile(bytes)),
      readFile(path.join(dist, 'pglite.data')),
    ]);
    return { pglite, initdb, bundle: new Uint8Array(bundle) };
  })();
  return assets;
};

export interface PgliteEngineOptions {
  upkeep?: PgliteUpkeep;
  /** Told when an upkeep round ends: null, or why it failed (logged by the database). */
  onUpkeep?: (error: string | null) => void;
}

export const startPgliteEngine = async (
  dataDir: string,
  options: PgliteEngineOptions = {},
): Promise<PgliteEngine> => startWorker(dataDir, await pgliteAssets(), options);

const startWorker = (
  dataDir: string,
  shared: PgliteAssets,
  options: PgliteEngineOptions,
): Promise<PgliteEngine> =>
  new Promise((resolveStart, rejectStart) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        dataDir,
        pgliteModule: require.resolve('@electric-sql/pglite'),
        assets: shared,
        upkeep: options.upkeep ?? DEFAULT_UPKEEP,
      },
    });
    const report: UpkeepReport = { runs: 0, lastError: null };
    const waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
    let nextId = 1;
    let failure: Error | null = null;

    const fail = (error: Error) => {
      failure ??= error;
      for (const { reject } of waiting.values()) reject(error);
      waiting.clear();
      rejectStart(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The PGlite worker exited (code ${code}).`)));
    worker.on('message', (reply: Reply) => {
      if (reply.id === UPKEEP_ID) {
        if (reply.error === undefined) report.runs += 1;
        report.lastError = reply.error ?? null;
        options.onUpkeep?.(report.lastError);
        return;
      }
      if (reply.id === 0) {
        if (reply.error) {
          fail(new Error(`PGlite could not open ${dataDir}: ${reply.error}`));
          void worker.terminate();
        } else {
          worker.unref();
          resolveStart(engine);
        }
        return;
      }
      waiting.get(reply.id)?.resolve(reply);
      waiting.delete(reply.id);
      // An idle database does not keep the process alive (like an idle pg socket); a query in flight does.
      if (waiting.size === 0) worker.unref();
    });

    const request = (message: Request): Promise<Reply> => {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise<Reply>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ ...message, id });
      }).then((reply) => {
        if (reply.error) throw new Error(`PGlite failed: ${reply.error}`);
        return reply;
      });
    };

    const engine: PgliteEngine = {
      upkeep: report,
      exec: async (bytes) => (await request({ kind: 'exec', bytes })).bytes ?? new Uint8Array(),
      close: async () => {
        if (failure) return;
        await request({ kind: 'close' });
        failure = new Error('The PGlite database is closed.');
        await worker.terminate();
      },
    };
  });
