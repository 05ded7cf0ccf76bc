import { runCli } from '../../src/cli/main';

export interface SummonResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `summon …` in-process (the real CLI, its real commands), capturing what it prints. */
export async function runSummon(
  argv: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<SummonResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv], {
    output: {
      out: (t) => {
        stdout += `${t}\n`;
      },
      err: (t) => {
        stderr += `${t}\n`;
      },
    },
    env: options.env,
    cwd: options.cwd,
  });
  return { code, stdout, stderr };
}
