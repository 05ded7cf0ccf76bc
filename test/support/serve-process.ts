import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The real `summon serve` in a child process (node with tsx's loader, so a SIGKILL kills the
 * process that runs it): its lines (the JSON log is on stderr), kept; waits for one; kills it.
 */
export class ServeProcess {
  /** Every line it wrote, stdout and stderr (the JSON log). */
  readonly lines: string[] = [];
  private exited = false;
  private readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly watchers = new Set<() => void>();

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.exit = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        this.exited = true;
        resolve({ code, signal });
        this.notify();
      }),
    );
    // The log is JSON lines on stderr; stdout has what a command prints.
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream, terminal: false }).on('line', (line) => {
        this.lines.push(line);
        this.notify();
      });
  }

  /** `summon <args>` with exactly this environment (and PATH). */
  static start(args: string[], env: Record<string, string>): ServeProcess {
    const main = path.join(__dirname, '../../src/cli/main.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
      cwd: path.join(__dirname, '../..'),
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'pipe',
    });
    return new ServeProcess(child);
  }

  /** The first line containing `text`; fails (with stderr and the lines) if the process exits first. */
  waitForLine(text: string, timeoutMs = 60_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`no line with "${text}" after ${timeoutMs} ms`)),
        timeoutMs,
      );
      const finish = (outcome: string | Error) => {
        clearTimeout(timer);
        this.watchers.delete(check);
        if (outcome instanceof Error) reject(new Error(`${outcome.message}; output:\n${this.output()}`));
        else resolve(outcome);
      };
      const check = () => {
        const line = this.lines.find((l) => l.includes(text));
        if (line !== undefined) return finish(line);
        if (this.exited) finish(new Error(`the process exited before printing "${text}"`));
      };
      this.watchers.add(check);
      check();
    });
  }

  /** Resolves with how it ended. */
  ended(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.exit;
  }

  output(): string {
    return this.lines.join('\n');
  }

  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (!this.exited) this.child.kill(signal);
    return this.exit;
  }

  private notify(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}
