import path from 'node:path';
import {
  describeCycle,
  importCycles,
  importGraph,
  ROOT,
  sourceFiles,
} from '../../../scripts/structure/import-graph';

/**
 * No import cycles in `src` (AGENTS.md: the core talks to the world through its ports, and a
 * file never imports back up the chain that imports it). Type-only imports count too: a
 * cycle of types is still a knot in the design (the engine's deps once named the tool kit,
 * which named the agent tools, which named the engine's deps). The graph and its cycles are
 * `scripts/structure/import-graph.ts`'s, which `npm run structure` counts too.
 */
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
    const graph = importGraph(sourceFiles(path.join(ROOT, 'src')));
    expect(graph.size).toBeGreaterThan(100);
    // Both kinds of import are read: a value import and a type-only one.
    expect(graph.get('src/core/engine/turn-engine.ts')).toEqual(
      expect.arrayContaining(['src/core/engine/engine-deps.ts', 'src/core/engine/lanes/lane-worker.ts']),
    );
    expect(graph.get('src/core/engine/agent-tools/index.ts')).toContain(
      'src/core/engine/agent-tools/agent-tool-context.ts',
    );
  });

  it('src has no import cycle, type-only imports included', () => {
    const graph = importGraph(sourceFiles(path.join(ROOT, 'src')));
    expect(importCycles(graph).map((cycle) => describeCycle(graph, cycle))).toEqual([]);
  });
});
