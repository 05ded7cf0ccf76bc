import { createProcessLauncher } from '../../../src/adapters/sandbox/create-process-launcher';
import { bashTools } from '../../../src/adapters/tools/bash-tool';
import type { AnyToolDefinition } from '../../../src/core/tools/tool-definition';
import { makeTempDir } from '../../support/temp-dir';
import { toolScope } from '../../support/tool-scope';

/**
 * X3: one process holds several launchers (the runs', the MCP client's for stdio servers, E3);
 * each counts its calls, and their cgroups live in the process's one `summon-<pid>` folder:
 * calls of two launchers at once both run, neither refused for a name the other took.
 */
describe('two sandbox launchers in one process (X3, E3)', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => dir.remove());

  it('X3: their first calls, at once, both run', async () => {
    const bash = () =>
      (
        bashTools({ env: { PATH: '/usr/bin:/bin' }, launcher: createProcessLauncher() }) as [
          AnyToolDefinition,
        ]
      )[0];
    const [first, second] = [bash(), bash()];
    const outcomes = await Promise.all(
      [first, second].map((tool, index) =>
        tool.run(
          { command: `sleep 0.3; echo call ${index}` },
          toolScope(dir.path),
          new AbortController().signal,
        ),
      ),
    );
    expect(outcomes).toEqual([
      { ok: true, output: 'Exit code 0.\ncall 0\n' },
      { ok: true, output: 'Exit code 0.\ncall 1\n' },
    ]);
  });
});
