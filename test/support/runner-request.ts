import type { AgentRecord } from '../../src/core/model/records';
import type { RunnerEvent, RunnerRequest } from '../../src/core/ports/runner';
import { NO_TOOLS } from '../../src/core/ports/turn-tools';
import { newAgentDefaults } from '../../src/core/workspace/agent-defaults';

/** An agent record for runner tests: `engineer` with the defaults a new agent gets. */
export const testAgent = (overrides: Partial<AgentRecord> = {}): AgentRecord => ({
  ...newAgentDefaults('engineer'),
  id: 'agent-engineer',
  workspaceId: 'ws-1',
  title: 'Engineer',
  persona: 'You write code.',
  createdAt: new Date('2025-03-01T10:00:00.000Z'),
  ...overrides,
});

/** A runner request as the engine builds one, with every part overridable. */
export const runnerRequest = (
  base: Pick<RunnerRequest, 'system' | 'prompt'> & { agent?: AgentRecord },
  overrides: Partial<RunnerRequest> = {},
): RunnerRequest => ({
  runId: 'run-1',
  agent: base.agent ?? testAgent(),
  system: base.system,
  prompt: base.prompt,
  workingDir: '/tmp/agents/engineer',
  tools: NO_TOOLS,
  signal: new AbortController().signal,
  ...overrides,
});

/** Every event a run yields, in order. */
export async function collectEvents(events: AsyncIterable<RunnerEvent>): Promise<RunnerEvent[]> {
  const seen: RunnerEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}
