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
  /** Closes the database (flushing it to `dataDir`) and ends the worker. */
  close(): Promise<void>;
}

type Request = { kind: 'exec'; bytes: Uint8Array } | { kind: 'close' };
type Reply = { id: number; bytes?: Uint8Array; error?: string };

/**
 * Plain CommonJS (no ESM syntax, so Node runs it as a script): one PGlite, one request at a
 * time, in arrival order.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pgliteModule);
const { assets } = workerData;
const ready = PGlite.create({
  dataDir: workerData.dataDir,
  pgliteWasmModule: assets.pglite,
  initdbWasmModule: assets.initdb,
  fsBundle: new Blob([assets.bundle]),
});
let queue = ready;
parentPort.on('message', (request) => {
  queue = queue.then(async (db) => {
    try {
      if (request.kind === 'close') {
        await db.close();
        parentPort.postMessage({ id: request.id });
      } else {
        const bytes = await db.execProtocolRaw(request.bytes);
        parentPort.postMessage({ id: request.id, bytes });
      }
    } catch (error) {
      parentPort.postMessage({ id: request.id, error: String((error && error.stack) || error) });
    }
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

export const startPgliteEngine = async (dataDir: string): Promise<PgliteEngine> =>
  startWorker(dataDir, await pgliteAssets());

const startWorker = (dataDir: string, shared: PgliteAssets): Promise<PgliteEngine> =>
  new Promise((resolveStart, rejectStart) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { dataDir, pgliteModule: require.resolve('@electric-sql/pglite'), assets: shared },
    });
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
      exec: async (bytes) => (await request({ kind: 'exec', bytes })).bytes ?? new Uint8Array(),
      close: async () => {
        if (failure) return;
        await request({ kind: 'close' });
        failure = new Error('The PGlite database is closed.');
        await worker.terminate();
      },
    };
  });
