import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import type { LoopLoad } from '../../core/ports/loop-load';

/** How far back a reading reaches, at least: readings cover one to two of these. */
const WINDOW_MS = 100;

interface Mark {
  utilization: EventLoopUtilization;
  at: number;
}

const markNow = (): Mark => ({ utilization: performance.eventLoopUtilization(), at: performance.now() });

/**
 * T4: Node's event loop utilisation (`performance.eventLoopUtilization`: the share of time the
 * loop was not waiting for I/O) since a mark 100–200 ms old: two marks, the older moved up to
 * the newer once the newer is a window old. A reading is two counter reads. After a lull with
 * no reading, the first covers the lull (low: nothing is held back after quiet).
 */
export class EventLoopLoad implements LoopLoad {
  private older: Mark = markNow();
  private newer: Mark = this.older;

  busy(): number {
    const now = markNow();
    if (now.at - this.newer.at >= WINDOW_MS) {
      this.older = this.newer;
      this.newer = now;
    }
    const { utilization } = performance.eventLoopUtilization(now.utilization, this.older.utilization);
    return Number.isFinite(utilization) ? utilization : 0;
  }
}
