import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The import graph of a source tree and its cycles: shared by the no-cycle test
 * (`test/unit/architecture/import-cycles.test.ts`) and `npm run structure`. Imports are read by
 * the TypeScript compiler's own pre-processor, so type-only imports, `export … from` and
 * `import()` count.
 */

/** The repository's root. */
export const ROOT = path.join(__dirname, '../..');

/** Every `.ts` file under `dir`, as absolute paths. */
export const sourceFiles = (dir: string): string[] =>
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

/** Each file (relative to `root`) to the files of the tree it imports. */
export function importGraph(files: readonly string[], root: string = ROOT): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.flatMap((imported) => resolveImport(file, imported.fileName) ?? []);
      return [path.relative(root, file), targets.map((target) => path.relative(root, target))];
    }),
  );
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
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
export const describeCycle = (
  graph: ReadonlyMap<string, readonly string[]>,
  cycle: readonly string[],
): string[] =>
  cycle.flatMap((file) =>
    (graph.get(file) ?? []).filter((target) => cycle.includes(target)).map((target) => `${file} → ${target}`),
  );
