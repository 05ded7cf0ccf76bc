import { execFile } from 'node:child_process';

export interface CurlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The real `curl` (installed by `.ci/run` when missing), with an environment of its own: no
 * proxy variable or `.curlrc` of the machine leaks in, so only the arguments decide the route.
 */
export function curl(args: readonly string[], env: Record<string, string> = {}): Promise<CurlResult> {
  return new Promise((resolve) => {
    execFile(
      'curl',
      ['-q', '--silent', '--show-error', '--max-time', '60', ...args],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
