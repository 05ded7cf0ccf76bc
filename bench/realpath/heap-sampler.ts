import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

/**
 * Preloaded (`--import`) into a bench child when `SUMMON_BENCH_HEAP_PROF` names a folder: V8's
 * sampling heap profiler with collected objects kept, so the profile shows where the process
 * allocates garbage (`node --heap-prof` keeps only what is still live at exit). Written as
 * `<dir>/heap-<pid>.heapprofile` when the process exits.
 */
const dir = process.env.SUMMON_BENCH_HEAP_PROF;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  process.once('exit', () => {
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) return;
      writeFileSync(path.join(dir, `heap-${process.pid}.heapprofile`), JSON.stringify(result.profile));
    });
  });
}
