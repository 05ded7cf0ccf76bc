import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ChatPlatform, InboundMessage } from '../../src/core/ports/chat-platform';
import type { RelayedAnswer, RelayedCall } from './worker-process';

/**
 * The test's side of `worker-process.ts`: spawns it (node with tsx's loader), keeps what it
 * prints, answers its platform calls from `platform`, and kills it.
 */
export class ChildWorker {
  /** Every line it printed, platform calls left out. */
  readonly lines: string[] = [];
  private stderr = '';
  private readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exited = false;
  private readonly watchers = new Set<() => void>();

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly platform: ChatPlatform,
  ) {
    this.exit = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        this.exited = true;
        resolve({ code, signal });
        this.notify();
      }),
    );
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    // Writes to a killed child fail with EPIPE: there is nobody left to answer.
    child.stdin.on('error', () => undefined);
    createInterface({ input: child.stdout, terminal: false }).on('line', (line) => {
      if (line.startsWith('PLATFORM ')) {
        void this.relay(JSON.parse(line.slice('PLATFORM '.length)) as RelayedCall);
        return;
      }
      this.lines.push(line);
      this.notify();
    });
  }

  /** Starts `worker-process.ts` with these settings (and PATH) in its environment. */
  static start(env: Record<string, string>, platform: ChatPlatform): ChildWorker {
    // tsx as a loader, not its CLI: the CLI runs the script in a second process, which a
    // SIGKILL of the first would leave running.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'worker-process.ts')], {
      cwd: path.join(__dirname, '../..'),
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'pipe',
    });
    return new ChildWorker(child, platform);
  }

  /** The first printed line matching `pattern`; fails (with its stderr) if it exits first. */
  waitForLine(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`no line ${pattern} after ${timeoutMs} ms`)),
        timeoutMs,
      );
      const finish = (outcome: RegExpExecArray | Error) => {
        clearTimeout(timer);
        this.watchers.delete(check);
        if (outcome instanceof Error) reject(new Error(`${outcome.message}; worker stderr:\n${this.stderr}`));
        else resolve(outcome);
      };
      const check = () => {
        for (const line of this.lines) {
          const match = pattern.exec(line);
          if (match) return finish(match);
        }
        if (this.exited) finish(new Error(`the worker exited before printing ${pattern}`));
      };
      this.watchers.add(check);
      check();
    });
  }

  /** T3: hands `message` to the worker's own engine to route (as a process of role `all` receives it). */
  receive(message: InboundMessage): void {
    this.child.stdin.write(`${JSON.stringify({ receive: message })}\n`);
  }

  /** Sends `signal` and resolves once the process has exited. */
  async kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (!this.exited) this.child.kill(signal);
    return this.exit;
  }

  private notify(): void {
    for (const watcher of [...this.watchers]) watcher();
  }

  private async relay(call: RelayedCall): Promise<void> {
    let answer: RelayedAnswer;
    try {
      if (call.op === 'post')
        answer = { id: call.id, ok: true, ref: await this.platform.post(call.thread, call.message) };
      else if (call.op === 'startThread') {
        const started = await this.platform.startThread(call.channel, call.message);
        answer = { id: call.id, ok: true, ref: JSON.stringify(started) };
      } else if (call.op === 'update') {
        await this.platform.update(call.thread, call.ref, call.message);
        answer = { id: call.id, ok: true };
      } else {
        await this.platform.tellPrivately(call.thread, call.user, call.text);
        answer = { id: call.id, ok: true };
      }
    } catch (error) {
      answer = { id: call.id, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    if (!this.exited) this.child.stdin.write(`${JSON.stringify(answer)}\n`);
  }
}
