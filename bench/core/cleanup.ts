/**
 * A stack of undo steps: each resource registers its own removal as soon as it exists, and
 * `run` undoes them newest first. Every step runs even when an earlier one fails; the first
 * failure is thrown at the end.
 */
export class Cleanup {
  private readonly steps: { what: string; undo: () => Promise<void> }[] = [];

  defer(what: string, undo: () => Promise<void>): void {
    this.steps.push({ what, undo });
  }

  async run(): Promise<void> {
    const failures: Error[] = [];
    for (let step = this.steps.pop(); step !== undefined; step = this.steps.pop()) {
      try {
        await step.undo();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        failures.push(new Error(`cleanup "${step.what}" failed: ${message}`, { cause: error }));
      }
    }
    const [first] = failures;
    if (first !== undefined) throw first;
  }
}
