import { readFileSync } from 'node:fs';

/**
 * Where a `.heapprofile` (SUMMON_BENCH_HEAP_PROF) allocates: bytes by allocating function and
 * by the nearest function of Summon's own (`src/`, `bench/`) above it, each ÷ `replies`.
 * `npx tsx bench/realpath/heap-sites.ts <file.heapprofile> [replies] [top]`.
 */
interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children?: HeapNode[];
}

const OWN = /\/(src|bench)\//;

function frame(node: HeapNode): string {
  const { functionName, url } = node.callFrame;
  const where = url.replace(/.*node_modules\//, 'nm:').replace(/^.*?\/(src|bench)\//, '$1/');
  return `${functionName || '(anonymous)'} ${where}`;
}

function sites(head: HeapNode): { self: Map<string, number>; own: Map<string, number>; total: number } {
  const self = new Map<string, number>();
  const own = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapNode, nearest: string) => {
    const here =
      OWN.test(node.callFrame.url) && !node.callFrame.url.includes('node_modules') ? frame(node) : nearest;
    if (node.selfSize > 0) {
      total += node.selfSize;
      self.set(frame(node), (self.get(frame(node)) ?? 0) + node.selfSize);
      own.set(here, (own.get(here) ?? 0) + node.selfSize);
    }
    for (const child of node.children ?? []) walk(child, here);
  };
  walk(head, '(no src frame above)');
  return { self, own, total };
}

function print(title: string, bytes: Map<string, number>, replies: number, top: number): void {
  console.log(title);
  for (const [site, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(size / replies).toFixed(0).padStart(9)} B/reply  ${site}`);
}

const [file, repliesArg, topArg] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: heap-sites.ts <file.heapprofile> [replies] [top]');
const replies = Number(repliesArg ?? 1);
const top = Number(topArg ?? 30);
const { self, own, total } = sites((JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode }).head);
console.log(`${(total / replies / 1024).toFixed(1)} KiB/reply allocated in all (start-up included)`);
print('by allocating function:', self, replies, top);
print('by nearest function in src/ or bench/:', own, replies, top);
