import { readSkillTool } from '../../core/tools/read-skill-tool';
import { submitPlanTool } from '../../core/tools/submit-plan-tool';
import type { AnyToolDefinition } from '../../core/tools/tool-definition';
import { type BashToolOptions, bashTools } from './bash-tool';
import { editFileTool } from './edit-file-tool';
import { listFilesTool, readFileTool, writeFileTool } from './file-tools';
import { globTool } from './glob-tool';
import { openPullRequestTool, type PullRequestOpener } from './open-pull-request-tool';
import { searchTool } from './search-tool';

export interface BuiltinToolOptions {
  bash: BashToolOptions;
  /** Absent or null when GitHub is not configured: then there is no `open_pull_request`. */
  pullRequests?: PullRequestOpener | null;
}

/**
 * The built-in harness's tools (A9). Adding a tool: one file exporting its definition
 * (src/core/tools/tool-definition.ts) and one line here. The space mode picks from this list
 * (tool-surface.ts); guardrails and approvals wrap every call (turn-tool-kit.ts).
 */
export function builtinTools(options: BuiltinToolOptions): AnyToolDefinition[] {
  return [
    ...bashTools(options.bash),
    readFileTool,
    writeFileTool,
    editFileTool,
    listFilesTool,
    searchTool,
    globTool,
    readSkillTool,
    submitPlanTool,
    ...(options.pullRequests == null ? [] : [openPullRequestTool(options.pullRequests)]),
  ];
}
