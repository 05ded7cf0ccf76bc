import type { Runner, RunnerEvent, RunnerRequest } from '../../core/ports/runner';

/**
 * The runner of an agent that has no way to answer yet: the turn fails with a sentence in the
 * thread that says what is missing, and nothing crashes (A10).
 */
export class UnconfiguredRunner implements Runner {
  constructor(private readonly reason: string) {}

  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    yield { type: 'error', message: `${request.agent.name} cannot answer: ${this.reason}` };
  }
}
