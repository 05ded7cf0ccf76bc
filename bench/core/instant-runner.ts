import type { Runner, RunnerEvent } from '../../src/core/ports/runner';

/** A runner that answers at once: what is measured is everything around the model. */
export class InstantRunner implements Runner {
  constructor(private readonly text = 'Done.') {}

  async *run(): AsyncIterable<RunnerEvent> {
    yield { type: 'final', text: this.text };
  }
}
