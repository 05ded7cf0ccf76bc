import { appendFileSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ToolOutcome } from '../../src/core/ports/turn-tools';
import { defineTool } from '../../src/core/tools/tool-definition';

/**
 * T2 scenarios: tools whose every run is one line in `countFile`, so a test can see that a call
 * ran exactly once across processes. `release` is classified as `commit` (with COMMITS_ASK_FIRST
 * it waits on an approval card); `hang` is not gated, tells `onStart` it runs, and never ends:
 * only a kill stops it.
 */
export function checkpointTools(countFile: string, onStart: (tool: string) => void = () => {}) {
  return [
    defineTool({
      name: 'release',
      description: 'Release a tag.',
      input: z.object({ tag: z.string().min(1) }),
      access: 'write',
      modes: ['chat'],
      classify: () => ['commit'],
      run: async (input): Promise<ToolOutcome> => {
        appendFileSync(countFile, `release ${input.tag}\n`);
        onStart('release');
        return { ok: true, output: `released ${input.tag}` };
      },
    }),
    defineTool({
      name: 'hang',
      description: 'Run a long job.',
      input: z.object({}),
      access: 'write',
      modes: ['chat'],
      classify: () => [],
      run: async (): Promise<ToolOutcome> => {
        appendFileSync(countFile, 'hang\n');
        onStart('hang');
        return new Promise<never>(() => undefined);
      },
    }),
  ];
}

/** The lines `checkpointTools` wrote: one per run of a tool. */
export function toolRuns(countFile: string): string[] {
  try {
    return readFileSync(countFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    return [];
  }
}
