import { appendFileSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ToolOutcome } from '../../src/core/ports/turn-tools';
import { defineTool } from '../../src/core/tools/tool-definition';

/** `read_log`'s output: about 1,000 tokens (four characters each). */
const LOG_LINE = 'step ok: compiled module without warnings\n';
const LOG_LINES = 95;

/**
 * T2 scenarios: tools whose every run is one line in `countFile`, so a test can see that a call
 * ran exactly once across processes. `release` is classified as `commit` (with COMMITS_ASK_FIRST
 * it waits on an approval card); `hang` is not gated, tells `onStart` it runs, and never ends:
 * only a kill stops it. `read_log` (A15, `compaction-after-kill.test.ts`) is read-only and prints
 * a long log headed `log #<n>` (its n-th run), so that a few rounds outgrow a small context.
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
      name: 'read_log',
      description: 'Read the build log.',
      input: z.object({}),
      access: 'read',
      modes: ['chat'],
      classify: () => [],
      run: async (): Promise<ToolOutcome> => {
        appendFileSync(countFile, 'read_log\n');
        const n = toolRuns(countFile).filter((line) => line === 'read_log').length;
        return { ok: true, output: `log #${n}\n${LOG_LINE.repeat(LOG_LINES)}` };
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
