import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ProcessTransportEnd } from './process-transport';

export interface FailureContext {
  server: string;
  /** `<server>__<tool>`, or undefined while listing. */
  name?: string;
  timeoutMs: number;
  /** The turn was stopped meanwhile. */
  aborted: boolean;
  /** Why the server's process went away, when it did. */
  ended?: ProcessTransportEnd | undefined;
  redact: (text: string) => string;
}

/**
 * E3: a call (or a listing) that could not be made, as one sentence naming the server and the
 * tool, for the model or the status card. Never a stack, never a credential (`redact`), never
 * more than a few hundred characters of what the server said.
 */
export function failureSentence(error: unknown, context: FailureContext): string {
  const { server, name } = context;
  const what = name === undefined ? 'its tools list' : name;
  if (context.aborted) return `The call to ${what} was stopped with the turn.`;
  if (context.ended?.kind === 'oversized') {
    const mb = Math.round(context.ended.limitBytes / 1024 ** 2);
    return `The MCP server ${server} answered ${what} with more than ${mb} MB; the answer was dropped.`;
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return `The MCP server ${server} did not answer ${what} within ${Math.round(context.timeoutMs / 1000)} s.`;
  }
  if (
    (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) ||
    context.ended !== undefined
  ) {
    return `The MCP server ${server} stopped before answering ${what}; it is started again on the next call.`;
  }
  if (error instanceof Error && (error.name === 'ZodError' || 'issues' in error)) {
    return `The MCP server ${server} answered ${what} with something that is not a valid MCP answer.`;
  }
  const message = clip(context.redact(error instanceof Error ? error.message : String(error)));
  if (error instanceof McpError) return `The MCP server ${server} refused ${what}: ${message}`;
  return `The MCP server ${server} could not be asked for ${what}: ${message}`;
}

const clip = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
};
