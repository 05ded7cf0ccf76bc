import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { bashTools } from '../../../src/adapters/tools/bash-tool';
import { agentEnvironment } from '../../../src/core/tools/agent-environment';
import type { AnyToolDefinition } from '../../../src/core/tools/tool-definition';
import { waitFor } from '../../support/engine-harness';
import { makeTempDir } from '../../support/temp-dir';
import { toolScope } from '../../support/tool-scope';

const SECRET = 'sk-ant-api03-BASH-SECRET-41c9';
const DB_PASSWORD = 'db-pass-7731';

describe('the bash tool (A9)', () => {
  let dir: { path: string; remove(): Promise<void> };
  let chatBash: AnyToolDefinition;
  let readOnlyBash: AnyToolDefinition;

  beforeEach(async () => {
    dir = await makeTempDir();
    const env = agentEnvironment(
      {
        ...process.env,
        ANTHROPIC_API_KEY: SECRET,
        DATABASE_URL: `postgres://summon:${DB_PASSWORD}@127.0.0.1/summon`,
        SLACK_BOT_TOKEN: 'xoxb-bash-test',
        ALIAS_OF_KEY: SECRET,
      },
      {},
      [SECRET, DB_PASSWORD],
    );
    [chatBash, readOnlyBash] = bashTools({ env, maxOutputChars: 2000, killGraceMs: 200 }) as [
      AnyToolDefinition,
      AnyToolDefinition,
    ];
  });
  afterEach(async () => {
    await dir.remove();
  });

  const run = (
    tool: AnyToolDefinition,
    command: string,
    signal = new AbortController().signal,
    mode: 'chat' | 'plan' = 'chat',
  ) => tool.run({ command }, toolScope(dir.path, mode), signal);

  it('runs in the working directory and reports the exit code', async () => {
    expect(await run(chatBash, 'pwd && echo hi > made.txt')).toEqual({
      ok: true,
      output: `Exit code 0.\n${dir.path}\n`,
    });
    expect(await readFile(path.join(dir.path, 'made.txt'), 'utf8')).toBe('hi\n');
    expect(await run(chatBash, 'echo oops >&2; exit 3')).toEqual({
      ok: false,
      output: 'Exit code 3.\noops\n',
    });
  });

  it('no Summon secret is in its environment', async () => {
    const outcome = await run(chatBash, 'env');
    expect(outcome.ok).toBe(true);
    expect(outcome.output).toContain('PATH=');
    for (const secret of [SECRET, DB_PASSWORD, 'xoxb-bash-test', 'ANTHROPIC_API_KEY', 'DATABASE_URL']) {
      expect(outcome.output).not.toContain(secret);
    }
  });

  it('caps the output visibly, keeping head and tail', async () => {
    const outcome = await run(chatBash, 'seq 1 5000');
    expect(outcome.output.length).toBeLessThan(2100);
    expect(outcome.output).toMatch(/^Exit code 0\.\n1\n2\n/);
    expect(outcome.output).toMatch(/characters cut: output longer than 2000/);
    expect(outcome.output.trimEnd().endsWith('5000')).toBe(true);
  });

  it('a timeout kills the whole process group, children included', async () => {
    const started = Date.now();
    const outcome = await chatBash.run(
      {
        command: `(sleep 31.123; echo late > ${path.join(dir.path, 'late.txt')}) & sleep 31.123`,
        timeout_seconds: 1,
      },
      toolScope(dir.path),
      new AbortController().signal,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome).toEqual({ ok: false, output: 'Command timed out after 1 s (process group killed).' });
    // X3: looked for on the host (the sandbox sees only its own processes); the pattern does not match itself
    expect(spawnSync('pgrep', ['-f', 'sleep 31[.]123'], { encoding: 'utf8' }).stdout).toBe('');
  });

  it('an abort of the turn kills the command', async () => {
    const controller = new AbortController();
    const pending = run(chatBash, 'touch started && sleep 30', controller.signal);
    // Aborted once the command runs (the sandbox may take a while to start on a loaded machine).
    await waitFor(async () => existsSync(path.join(dir.path, 'started')));
    controller.abort();
    expect(await pending).toEqual({
      ok: false,
      output: 'Command stopped because the turn was stopped (process group killed).',
    });
  });

  it('A9: the plan/review variant runs read-only commands and refuses writes with a sentence', async () => {
    expect((await run(readOnlyBash, 'ls', undefined, 'plan')).ok).toBe(true);
    expect(await run(readOnlyBash, 'echo x > f.txt', undefined, 'plan')).toEqual({
      ok: false,
      output: 'Refused in plan mode (read-only): it redirects output into a file.',
    });
  });
});
