import type { ToolCall, ToolOutcome } from '../ports/turn-tools';

const MAX_SUMMARY = 80;

/** Input fields that say best what a call does, in order of preference. */
const TELLING_FIELDS = ['command', 'pattern', 'path', 'name', 'skill', 'title'] as const;

/**
 * P9: the one-line status-card row of a tool call, e.g. `npm test` for bash or the path for
 * a file tool; otherwise the input as compact JSON. Cut to one line of at most 80 characters.
 */
export function summarizeCall(call: Pick<ToolCall, 'input'>): string {
  const input = call.input;
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const fields = input as Record<string, unknown>;
    for (const field of TELLING_FIELDS) {
      const value = fields[field];
      if (typeof value === 'string' && value.trim() !== '') return oneLine(value);
    }
  }
  return oneLine(input === undefined ? '' : JSON.stringify(input));
}

/** P9: the row a finished call leaves: the tool and what it did; a failure adds why. */
export function summarizeOutcome(call: ToolCall, outcome: ToolOutcome): string {
  const row = `${call.name}: ${summarizeCall(call)}`;
  return outcome.ok ? row : `${row} — ${oneLine(outcome.output)}`;
}

export function oneLine(text: string, max = MAX_SUMMARY): string {
  const first = text.trim().split('\n')[0] ?? '';
  const flat = first.replace(/\s+/g, ' ');
  const more = flat.length > max || text.trim().includes('\n');
  return more ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}
