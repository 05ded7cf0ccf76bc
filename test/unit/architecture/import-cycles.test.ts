import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * No import cycles in `src` (AGENTS.md: the core talks to the world through its ports, and a
 * file never imports back up the chain that imports it). Type-only imports count too: a
 * cycle of types is still a knot in the design (the engine's deps once named the tool kit,
 * which named the agent tools, which named the engine's deps). Imports are read by the
 * TypeScript compiler's own pre-processor, so `export … from` and `import()` count.
 */
const root = path.join(__dirname, '../../..');

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });

/** A relative specifier to the file it names (`./x` → `x.ts` or `x/index.ts`); a library: null. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate)) ?? null;
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.flatMap((imported) => resolveImport(file, imported.fileName) ?? []);
      return [path.relative(root, file), targets.map((target) => path.relative(root, target))];
    }),
  );
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, order.get(target) as number));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

/** Each cycle as its edges, `a → b`, so a failure names the imports to undo. */
const describeCycle = (graph: ReadonlyMap<string, readonly string[]>, cycle: readonly string[]): string[] =>
  cycle.flatMap((file) =>
    (graph.get(file) ?? []).filter((target) => cycle.includes(target)).map((target) => `${file} → ${target}`),
  );

describe('import cycles', () => {
  it('finds a cycle when there is one (and none in a chain)', () => {
    const knotted = new Map([
      ['deps.ts', ['kit.ts']],
      ['kit.ts', ['tools/index.ts', 'ports.ts']],
      ['tools/index.ts', ['deps.ts']],
      ['ports.ts', []],
    ]);
    expect(importCycles(knotted)).toEqual([['deps.ts', 'kit.ts', 'tools/index.ts']]);
    expect(importCycles(new Map([['self.ts', ['self.ts']]]))).toEqual([['self.ts']]);
    expect(importCycles(new Map([...knotted, ['tools/index.ts', ['ports.ts']]]))).toEqual([]);
  });

  it('reads the imports of the source tree', () => {
    const graph = importGraph(sourceFiles(path.join(root, 'src')));
    expect(graph.size).toBeGreaterThan(100);
    // Both kinds of import are read: a value import and a type-only one.
    expect(graph.get('src/core/engine/turn-engine.ts')).toEqual(
      expect.arrayContaining(['src/core/engine/engine-deps.ts', 'src/core/engine/turn/lane-worker.ts']),
    );
    expect(graph.get('src/core/engine/agent-tools/index.ts')).toContain(
      'src/core/engine/agent-tools/agent-tool-context.ts',
    );
  });

  it('src has no import cycle, type-only imports included', () => {
    const graph = importGraph(sourceFiles(path.join(root, 'src')));
    expect(importCycles(graph).map((cycle) => describeCycle(graph, cycle))).toEqual([]);
  });
});
