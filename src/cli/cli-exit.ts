/**
 * Ends a command with a particular exit code after it has printed what it had to say (for
 * callers that read the code, like Claude Code reading a hook's exit 2 as "block").
 */
export class CliExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = 'CliExit';
  }
}
