import type { ApprovalDetails } from '../model/approvals/approval-record';
import { type McpCallSubject, mcpToolName } from '../model/mcp/mcp-call';

/** E4: the arguments on a card are bounded: at most this many lines and characters. */
export const CARD_ARGUMENT_LIMITS = { lines: 20, chars: 1500 } as const;

/** What a value hidden on the card shows instead. */
export const MASK = '••••';

/**
 * Keys whose values are secrets as far as a card is concerned (the call itself still gets
 * them): tokens, secrets, passwords, authorization headers, API and access keys, cookies,
 * credentials, private keys, session ids.
 */
const SECRET_KEY =
  /(token|secret|passw(or)?d|passphrase|authori[sz]ation|api[-_]?key|access[-_]?key|private[-_]?key|cookie|credential|session[-_]?(id|key)?$|bearer|signature)/i;

export const looksSecret = (key: string): boolean => SECRET_KEY.test(key);

/** The arguments with every value under a secret-looking key replaced by the mask, at every depth. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value === null || typeof value !== 'object') return value;
  const masked: Record<string, unknown> = Object.create(null);
  for (const [key, inner] of Object.entries(value))
    masked[key] = looksSecret(key) ? MASK : maskSecrets(inner);
  return masked;
}

/**
 * E4, P5: the arguments as the card shows them: pretty JSON, secrets masked (P5: secrets never
 * reach chat), cut to the limits with "…" where something was left out.
 */
export function cardArguments(
  args: Readonly<Record<string, unknown>>,
  limits: { lines: number; chars: number } = CARD_ARGUMENT_LIMITS,
): string {
  const text = JSON.stringify(maskSecrets(args), null, 2) ?? '{}';
  let lines = text.split('\n');
  let cut = false;
  if (lines.length > limits.lines) {
    lines = lines.slice(0, limits.lines - 1);
    cut = true;
  }
  let shown = lines.join('\n');
  if (shown.length > limits.chars - (cut ? 2 : 0)) {
    shown = shown.slice(0, limits.chars - 2);
    cut = true;
  }
  return cut ? `${shown}\n…` : shown;
}

/** E4: an MCP call's approval card: the server, the tool, why it asks, and the arguments. */
export function mcpApprovalDetails(agentName: string, call: McpCallSubject, reason: string): ApprovalDetails {
  return {
    summary: `${agentName} wants to call ${mcpToolName(call.server, call.tool)}`,
    lines: [`server: ${call.server}`, `tool: ${call.tool}`, reason],
    code: cardArguments(call.arguments),
  };
}
