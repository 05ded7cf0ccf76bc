const KEEP_CHARS = 16_000;
const LAST_LINES = 10;

/** The end of a process's stderr, kept in bounded memory, for the error shown in the thread. */
export class StderrTail {
  private text = '';

  add(chunk: string): void {
    this.text = (this.text + chunk).slice(-KEEP_CHARS);
  }

  /** The last non-empty lines (at most ten). */
  lastLines(): string {
    return this.text
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line !== '')
      .slice(-LAST_LINES)
      .join('\n');
  }
}
