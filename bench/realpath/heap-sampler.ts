import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

/**
 * Preloaded (`--import`) into a bench child when `SUMMON_BENCH_HEAP_PROF` names a folder: V8's
 * sampling heap profiler with collected objects kept, so the profile shows where the process
 * allocates garbage (`node --heap-prof` keeps only what is still live at exit). Written as
 * `<dir>/heap-<pid>.heapprofile` when the process exits. With `SUMMON_BENCH_HEAP_PROF_OLD=1`, objects
 * a young-generation collection freed are left out: the profile shows what outlived the young
 * generation (live at exit, or promoted and freed by a full collection), the allocations that
 * make the full collections come.
 */
const dir = process.env.SUMMON_BENCH_HEAP_PROF;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.SUMMON_BENCH_HEAP_PROF_OLD !== '1',
  });
  process.once('exit', () => {
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) return;
      writeFileSync(path.join(dir, `heap-${process.pid}.heapprofile`), JSON.stringify(result.profile));
    });
  });
}
