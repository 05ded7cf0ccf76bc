import type { AnyToolDefinition } from '../../tools/tool-definition';
import type { AgentToolContext } from './agent-tool-context';
import { answerQuestionTool } from './answer-question-tool';
import { askAgentTool } from './ask-agent-tool';
import { askQuestionTool } from './ask-question-tool';
import { delegateTaskTool } from './delegate-task-tool';
import { listRemoteAgentsTool } from './list-remote-agents-tool';
import { sendToAgentTool } from './send-to-agent-tool';

export {
  type AgentToolContext,
  type AgentToolTimings,
  DEFAULT_AGENT_TOOL_TIMINGS,
} from './agent-tool-context';
export { questionMessage, recordAnswer } from './questions';

/** M23, N11, N13: the agent-to-agent tools of one turn. */
export function agentTools(ctx: AgentToolContext): AnyToolDefinition[] {
  return [
    sendToAgentTool(ctx),
    askAgentTool(ctx),
    delegateTaskTool(ctx),
    askQuestionTool(ctx),
    answerQuestionTool(ctx),
    // R1 `read`: offered where this relay can reach paired ones.
    ...(ctx.deps.relays === undefined ? [] : [listRemoteAgentsTool(ctx)]),
  ];
}
