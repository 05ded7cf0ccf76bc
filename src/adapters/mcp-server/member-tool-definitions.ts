import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AppError } from '../../core/errors';
import { USAGE_GROUPINGS } from '../../core/model/usage/usage-report';
import type { Logger } from '../../core/ports/logger';
import type { AskOutcome, McpCaller, MemberTools } from '../../core/ports/member-tools';

/** What one request's tools are given: the service, the caller the token named, and the request's end. */
export interface ToolContext {
  tools: MemberTools;
  caller: McpCaller;
  logger: Logger;
  /** Aborted when the HTTP request ends early: `ask_agent` stops waiting (never the turn). */
  requestGone: AbortSignal;
}

const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(isError ? { isError: true } : {}),
});
const json = (value: unknown): CallToolResult => text(JSON.stringify(value, null, 2));

/** E6: a refusal's sentence goes back to the client as a tool error; anything else is logged, not shown. */
async function answer(
  ctx: ToolContext,
  tool: string,
  work: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const log = ctx.logger.child({
    tool,
    member: ctx.caller.member.nickname,
    workspace: ctx.caller.workspace.slug,
  });
  try {
    const result = await work();
    log.info({ refused: result.isError === true }, 'MCP tool call');
    return result;
  } catch (error) {
    if (error instanceof AppError && error.code !== 'internal') {
      log.info({ refused: true, code: error.code }, 'MCP tool call');
      return text(error.message, true);
    }
    log.error({ err: String(error) }, 'MCP tool call failed');
    return text(
      'Summon could not do that because of an error on its side (it is logged); try again later.',
      true,
    );
  }
}

/** E6: the agent's reply is the result; a turn still going names its thread. */
function askResult(outcome: AskOutcome): CallToolResult {
  switch (outcome.kind) {
    case 'replied':
      return text(outcome.reply);
    case 'failed':
      return text(
        `${outcome.agent}'s turn did not finish with a reply: ${outcome.reason} (thread: ${outcome.thread})`,
        true,
      );
    case 'still-working':
      return text(`${outcome.agent} is still working; see ${outcome.thread} for the reply.`);
  }
}

/** E6: Summon's tools, each reading or acting as the token's member. */
export function registerMemberTools(server: McpServer, ctx: ToolContext): void {
  const { tools, caller } = ctx;
  server.registerTool(
    'list_spaces',
    {
      description: 'The Summon spaces you may reach: their context, chat platforms and agents.',
      annotations: { readOnlyHint: true },
    },
    () => answer(ctx, 'list_spaces', async () => json(await tools.listSpaces(caller))),
  );
  server.registerTool(
    'list_agents',
    {
      description: "The workspace's agents (or one space's), with the spaces each takes part in.",
      inputSchema: { space: z.string().optional().describe('a space name: only its agents') },
      annotations: { readOnlyHint: true },
    },
    ({ space }) => answer(ctx, 'list_agents', async () => json(await tools.listAgents(caller, { space }))),
  );
  server.registerTool(
    'ask_agent',
    {
      description:
        "Ask an agent in a space, as a chat mention by you: a new thread in the space's channel shows the question; the agent's reply is the result (after 10 minutes: where to find it).",
      inputSchema: {
        space: z.string().min(1).describe('the space to ask in (list_spaces)'),
        agent: z.string().min(1).describe('the agent to ask (list_agents)'),
        prompt: z.string().min(1).describe('what to ask'),
      },
    },
    (args, extra) =>
      answer(ctx, 'ask_agent', async () =>
        askResult(await tools.askAgent(caller, args, AbortSignal.any([extra.signal, ctx.requestGone]))),
      ),
  );
  server.registerTool(
    'list_approvals',
    {
      description: 'The approvals waiting for a decision in the spaces you may reach.',
      annotations: { readOnlyHint: true },
    },
    () => answer(ctx, 'list_approvals', async () => json(await tools.listApprovals(caller))),
  );
  server.registerTool(
    'decide_approval',
    {
      description:
        'Approve or deny a waiting approval, as a click on its card (owners, admins and approvers); an MCP tool call can also be approved for its whole conversation (approve-conversation).',
      inputSchema: {
        approvalId: z.string().min(1),
        verdict: z.enum(['approve', 'approve-conversation', 'deny']),
      },
    },
    (args) => answer(ctx, 'decide_approval', async () => json(await tools.decideApproval(caller, args))),
  );
  server.registerTool(
    'usage',
    {
      description:
        "Your workspace's token usage and cost (as `summon usage` shows it), by agent, space or member.",
      inputSchema: {
        by: z.enum(USAGE_GROUPINGS).optional(),
        since: z.string().optional().describe('a date (2026-11-01) or days back (7d); default: this month'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) => answer(ctx, 'usage', async () => json(await tools.usage(caller, args))),
  );
}
