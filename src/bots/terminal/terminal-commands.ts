import type { ApprovalVerdict } from '../../core/model/approvals/approval';

/** What one typed line asks for. */
export type TerminalInput =
  | { kind: 'empty' }
  | { kind: 'message'; text: string }
  | { kind: 'help' }
  | { kind: 'threads' }
  | { kind: 'thread'; number: number }
  | { kind: 'new' }
  | { kind: 'note'; action: 'open' | 'fold'; card: number }
  | { kind: 'approval'; verdict: ApprovalVerdict; card: number }
  | { kind: 'answer'; answer: string }
  | { kind: 'stop' }
  | { kind: 'quit' }
  | { kind: 'usage'; usage: string }
  | { kind: 'unknown'; command: string };

type CommandSpec = { name: string; does: string } & (
  | { argument: null; input: TerminalInput }
  | { argument: '<n>'; input: (n: number) => TerminalInput }
  | { argument: '<n|text>'; input: (text: string) => TerminalInput }
);

const COMMANDS: readonly CommandSpec[] = [
  { name: 'help', argument: null, input: { kind: 'help' }, does: 'list these commands' },
  {
    name: 'threads',
    argument: null,
    input: { kind: 'threads' },
    does: 'list the threads: number, title, last activity',
  },
  {
    name: 'thread',
    argument: '<n>',
    input: (number) => ({ kind: 'thread', number }),
    does: 'go to thread n and show its messages',
  },
  {
    name: 'new',
    argument: null,
    input: { kind: 'new' },
    does: 'leave the thread: the next message starts a new one',
  },
  {
    name: 'open',
    argument: '<n>',
    input: (card) => ({ kind: 'note', action: 'open', card }),
    does: 'unfold note #n of this thread',
  },
  {
    name: 'fold',
    argument: '<n>',
    input: (card) => ({ kind: 'note', action: 'fold', card }),
    does: 'fold note #n of this thread',
  },
  {
    name: 'approve',
    argument: '<n>',
    input: (card) => ({ kind: 'approval', verdict: 'approve', card }),
    does: 'approve approval card #n of this thread',
  },
  {
    name: 'approve-conversation',
    argument: '<n>',
    input: (card) => ({ kind: 'approval', verdict: 'approve-conversation', card }),
    does: 'approve MCP call card #n, and the same call again in this conversation (E4)',
  },
  {
    name: 'deny',
    argument: '<n>',
    input: (card) => ({ kind: 'approval', verdict: 'deny', card }),
    does: 'deny approval card #n of this thread',
  },
  {
    name: 'answer',
    argument: '<n|text>',
    input: (answer) => ({ kind: 'answer', answer }),
    does: 'answer the open question of this thread: an option number or your own words',
  },
  {
    name: 'stop',
    argument: null,
    input: { kind: 'stop' },
    does: 'stop the turns still working in this thread (their starter, owners, admins, approvers)',
  },
  { name: 'quit', argument: null, input: { kind: 'quit' }, does: 'leave the chat' },
];

/** `/help`: every command, then how plain lines are read. */
export function helpLines(): string[] {
  const usages = COMMANDS.map((command) => usageOf(command));
  const width = Math.max(...usages.map((usage) => usage.length));
  return [
    ...COMMANDS.map((command, i) => `  ${(usages[i] ?? '').padEnd(width)}  ${command.does}`),
    '  Any other line is a message: in the current thread, or starting a new one.',
    '  Mention an agent to start it (@engineer fix the login bug); //text sends a line starting with /.',
  ];
}

/**
 * Reads one typed line. A line is a command only when it starts with `/` and a word; `//…`
 * sends the rest as text, and `/skill:name …` is a message (A5: it loads a skill for the turn).
 */
export function parseTerminalInput(line: string): TerminalInput {
  const trimmed = line.trim();
  if (trimmed === '') return { kind: 'empty' };
  if (trimmed.startsWith('//')) return { kind: 'message', text: trimmed.slice(1) };
  const match = /^\/(\S+)(?:\s+(.*))?$/.exec(trimmed);
  const name = match?.[1];
  if (name === undefined || name.includes(':')) return { kind: 'message', text: trimmed };
  const argument = match?.[2]?.trim() ?? '';
  const spec = COMMANDS.find((command) => command.name === name.toLowerCase());
  if (spec === undefined) return { kind: 'unknown', command: `/${name}` };
  if (spec.argument === null) {
    return argument === '' ? spec.input : { kind: 'usage', usage: usageOf(spec) };
  }
  if (spec.argument === '<n|text>') {
    return argument === '' ? { kind: 'usage', usage: usageOf(spec) } : spec.input(argument);
  }
  const number = /^#?([1-9][0-9]{0,8})$/.exec(argument)?.[1];
  if (number === undefined) return { kind: 'usage', usage: usageOf(spec) };
  return spec.input(Number(number));
}

function usageOf(command: CommandSpec): string {
  return command.argument === null ? `/${command.name}` : `/${command.name} ${command.argument}`;
}
