import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * Runs the real `git` with a clean environment: no system or user config, no prompts.
 * `extraEnv` carries configuration as GIT_CONFIG_* variables, so secrets never reach argv.
 */
export function runGit(
  args: readonly string[],
  options: { cwd?: string; extraEnv?: Record<string, string>; stdin?: Readable; home: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd: options.cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: options.home,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_TERMINAL_PROMPT: '0',
        ...options.extraEnv,
      },
      stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => {
      if (stdout.length < 1_000_000) stdout += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 100_000) stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    if (options.stdin && child.stdin) {
      child.stdin.on('error', () => {}); // git may exit before reading everything
      options.stdin.pipe(child.stdin);
    }
  });
}

/** `http.extraHeader` for one git command, through the environment (never argv). */
export const authHeaderEnv = (authorization: string): Record<string, string> => ({
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'http.extraHeader',
  GIT_CONFIG_VALUE_0: `Authorization: ${authorization}`,
});
