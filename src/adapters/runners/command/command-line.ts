import path from 'node:path';

/** Quotes one argument for a POSIX shell. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Whether an agent's `command` starts Claude Code (`claude …`, possibly after `VAR=value`
 * assignments or as a path to the binary): then Summon passes the system prompt with
 * `--append-system-prompt` and installs the pre-tool-use hook (A9).
 */
export function isClaudeCode(command: string): boolean {
  const words = command.trim().split(/\s+/);
  const program = words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  return program !== undefined && path.basename(program) === 'claude';
}

/**
 * The agent's `command` is a shell command line written by the workspace owner; it runs under
 * `sh -c` with Summon's own arguments appended as `"$@"`, so they need no quoting.
 */
export function shellArgv(command: string, extraArgs: readonly string[]): [string, ...string[]] {
  const line = extraArgs.length === 0 ? command : `${command} "$@"`;
  return ['/bin/sh', '-c', line, 'summon-agent', ...extraArgs];
}
