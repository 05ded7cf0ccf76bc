import { Worker } from 'node:worker_threads';

/** A line that matched: where, and its text (cut at `maxLineChars`). */
export interface LineMatch {
  relative: string;
  line: number;
  text: string;
}

export interface MatchJob {
  files: readonly { relative: string; absolute: string }[];
  pattern: string;
  flags: string;
  /** The worker stops after this many matches. */
  maxMatches: number;
  /** Larger files are skipped. */
  maxFileBytes: number;
  /** A NUL byte in a file's first bytes marks it binary: skipped. */
  sniffBytes: number;
  maxLineChars: number;
}

export type MatchResult = { ok: true; matches: LineMatch[] } | { ok: false; reason: string };

// Plain JavaScript, run in a worker by source (eval) so it needs no build step of its own.
const MATCHER = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, fstatSync, openSync, readFileSync } = require('node:fs');
const job = workerData;
const regex = new RegExp(job.pattern, job.flags);
const matches = [];
outer: for (const file of job.files) {
  let content;
  let fd;
  try {
    fd = openSync(file.absolute, 'r');
    if (fstatSync(fd).size > job.maxFileBytes) continue;
    content = readFileSync(fd);
  } catch {
    continue;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (content.subarray(0, job.sniffBytes).includes(0)) continue;
  const lines = content.toString('utf8').split('\\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\\r$/, '');
    if (!regex.test(line)) continue;
    matches.push({ relative: file.relative, line: i + 1, text: line.slice(0, job.maxLineChars) });
    if (matches.length >= job.maxMatches) break outer;
  }
}
parentPort.postMessage(matches);
`;

/**
 * A16: matches a regular expression over files in a worker thread, so that an expression
 * that backtracks without end (`(a+)+$`) costs the worker, which is ended after `timeoutMs`
 * or when the turn stops, and never blocks the service's event loop and the other turns.
 */
export function matchInWorker(job: MatchJob, timeoutMs: number, signal: AbortSignal): Promise<MatchResult> {
  return new Promise((resolve) => {
    const worker = new Worker(MATCHER, {
      eval: true,
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    let settled = false;
    const finish = (result: MatchResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          reason: `The search took longer than ${Math.round(timeoutMs / 1000)} s and was stopped: simplify the pattern (nested repetition such as (a+)+ backtracks without end) or narrow the path or glob.`,
        }),
      timeoutMs,
    );
    const onAbort = () => finish({ ok: false, reason: 'Search stopped: the turn was stopped.' });
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    worker.once('message', (matches: LineMatch[]) => finish({ ok: true, matches }));
    worker.once('error', (error) => finish({ ok: false, reason: `The search failed: ${error.message}` }));
    worker.once('exit', (code) =>
      finish({ ok: false, reason: `The search ended early (exit code ${code}).` }),
    );
  });
}
