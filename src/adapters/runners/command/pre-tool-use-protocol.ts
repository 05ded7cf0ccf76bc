import { z } from 'zod';
import type { ToolAuthorization, ToolCall } from '../../../core/ports/turn-tools';

/**
 * The per-run loopback channel between a CLI agent's pre-tool-use hook and the runner that
 * started the agent (A9). Both values are per run and are not Summon secrets: the token only
 * lets the hook ask this run's runner for decisions.
 */
export const HOOK_URL_ENV = 'SUMMON_HOOK_URL';
export const HOOK_TOKEN_ENV = 'SUMMON_HOOK_TOKEN';
export const HOOK_PATH = '/pre-tool-use';

/** What Claude Code writes on a PreToolUse hook's stdin (the fields Summon reads). */
export const preToolUseInputSchema = z.object({
  hook_event_name: z.literal('PreToolUse').optional(),
  tool_name: z.string().min(1),
  tool_input: z.unknown(),
  tool_use_id: z.string().optional(),
  session_id: z.string().optional(),
  cwd: z.string().optional(),
});
export type PreToolUseInput = z.infer<typeof preToolUseInputSchema>;

/** What the runner answers over the channel. */
export const channelAnswerSchema = z.union([
  z.object({ allowed: z.literal(true) }),
  z.object({ allowed: z.literal(false), reason: z.string() }),
]);

/**
 * The guarded call for a Claude Code tool call: its `Bash` is Summon's `bash` (the action policy
 * classifies the command); MCP tools (`mcp__server__tool`) keep their names.
 */
export function toToolCall(input: PreToolUseInput): ToolCall {
  const callId = input.tool_use_id ?? `hook-${Date.now()}`;
  if (input.tool_name === 'Bash') {
    const toolInput = input.tool_input;
    const command =
      typeof toolInput === 'object' && toolInput !== null && 'command' in toolInput
        ? String((toolInput as { command: unknown }).command)
        : '';
    return { callId, name: 'bash', input: { command } };
  }
  return { callId, name: input.tool_name, input: input.tool_input };
}

/**
 * Claude Code's PreToolUse decision (JSON on stdout): `allow` lets the call run without a
 * permission prompt, `deny` blocks it and shows the reason to the model.
 */
export function hookDecisionOutput(decision: ToolAuthorization): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision.allowed ? 'allow' : 'deny',
      permissionDecisionReason: decision.allowed ? 'Allowed by Summon’s action policy.' : decision.reason,
    },
  });
}
