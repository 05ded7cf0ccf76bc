import type { AnyToolDefinition } from '../../tools/tool-definition';
import type { AgentToolContext } from './agent-tool-context';
import { answerQuestionTool } from './answer-question-tool';
import { askAgentTool } from './ask-agent-tool';
import { askQuestionTool } from './ask-question-tool';
import { delegateTaskTool } from './delegate-task-tool';
import { listRemoteAgentsTool } from './list-remote-agents-tool';
import { scheduleRoutineTool } from './schedule-routine-tool';
import { sendToAgentTool } from './send-to-agent-tool';

export {
  type AgentToolContext,
  type AgentToolTimings,
  DEFAULT_AGENT_TOOL_TIMINGS,
} from './agent-tool-context';
export { questionMessage, recordAnswer } from './questions';

/** M23, N11, N13, W1: the agent-to-agent tools of one turn, and proposing a routine. */
export function agentTools(ctx: AgentToolContext): AnyToolDefinition[] {
  return [
    sendToAgentTool(ctx),
    askAgentTool(ctx),
    delegateTaskTool(ctx),
    askQuestionTool(ctx),
    answerQuestionTool(ctx),
    // W1: a routine proposed on a card a person confirms.
    scheduleRoutineTool(ctx),
    // R1 `read`: offered where this relay can reach paired ones.
    ...(ctx.deps.relays === undefined ? [] : [listRemoteAgentsTool(ctx)]),
  ];
}
