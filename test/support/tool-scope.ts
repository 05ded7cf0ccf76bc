import type { SpaceMode } from '../../src/core/model/space';
import type { ToolScope } from '../../src/core/tools/tool-definition';
import { testAgent } from './runner-request';

/** The scope a tool sees, for calling one tool directly in its working directory. */
export const toolScope = (
  workingDir: string,
  mode: SpaceMode = 'chat',
  overrides: Partial<ToolScope> = {},
): ToolScope => ({
  runId: 'run-1',
  workspaceId: 'ws-1',
  agent: testAgent(),
  space: {
    id: 'space-1',
    workspaceId: 'ws-1',
    name: 'general',
    context: '',
    mode,
    autonomy: 'actWithApproval',
    dedicated: false,
    whileRunning: 'steer',
    repos: [],
    createdAt: new Date(0),
  },
  workingDir,
  skills: [],
  state: new Map(),
  ...overrides,
});
