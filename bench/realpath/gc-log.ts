import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

/**
 * Preloaded (`--import`) into a bench child when `SUMMON_BENCH_GC_LOG` names a folder: each
 * garbage collection of the process, one line in `<dir>/gc-<pid>.log` — the wall clock it began,
 * its kind (`minor`: the young generation; `major`: a full collection's end; `incremental`: its
 * marking finished), its pause, and the old space's size after it. Lined up with a stretch's
 * `startedAt` (`reply-windows.ts`), it says which slow windows fell on a full collection.
 */
const dir = process.env.SUMMON_BENCH_GC_LOG;
if (dir) {
  const file = openSync(path.join(dir, `gc-${process.pid}.log`), 'a');
  const kinds = new Map<number, string>([
    [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
    [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
    [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak-callbacks'],
  ]);
  const observer = new PerformanceObserver((list) => {
    const old = getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
    const oldMb = ((old?.space_used_size ?? 0) / 1e6).toFixed(1);
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind ?? -1;
      const at = new Date(performance.timeOrigin + entry.startTime).toISOString();
      const line = `${at} ${kinds.get(kind) ?? kind} ${entry.duration.toFixed(1)} ms old ${oldMb} MB\n`;
      writeSync(file, line);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  process.once('exit', () => closeSync(file));
}
