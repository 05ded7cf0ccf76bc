import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { type Issue, ValidationError } from '../errors';
import { accessGroupKey } from '../model/members/access-group';
import { accessGroupOf } from './access-entries';
import { type WorkspaceFile, workspaceFileSchema } from './workspace-file-schema';

/**
 * Reads a workspace file. A bad file is refused whole, with every problem listed by path
 * (`agents[2].silenceTimeoutMinutes: must be 1..240`); nothing is half-accepted.
 */
export function parseWorkspaceFile(text: string, source = 'workspace file'): WorkspaceFile {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    const issues = document.errors.map((error) => ({
      path: error.linePos ? `line ${error.linePos[0].line}, column ${error.linePos[0].col}` : '',
      message: (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, ''),
    }));
    throw new ValidationError(`${source} is not valid YAML`, issues);
  }
  return validateWorkspaceFile(document.toJS(), source);
}

export function validateWorkspaceFile(value: unknown, source = 'workspace file'): WorkspaceFile {
  const result = workspaceFileSchema.safeParse(value);
  const issues = result.success
    ? duplicateIssues(result.data)
    : result.error.issues.flatMap((issue) => toIssues(issue, value));
  if (issues.length > 0 || !result.success) {
    throw new ValidationError(`${source} was refused; nothing was written`, issues);
  }
  return result.data;
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    return out === '' ? String(key) : `${out}.${String(key)}`;
  }, '');
}

function toIssues(issue: z.core.$ZodIssue, root: unknown): Issue[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: 'unknown key' }));
  }
  // A map's key (`env`, `headers`) that breaks its rule: say the rule, not "Invalid key".
  if (issue.code === 'invalid_key' && issue.issues[0] !== undefined) {
    return [{ path: formatPath(issue.path), message: issue.issues[0].message }];
  }
  if (
    issue.code === 'invalid_value' &&
    issue.values.length > 0 &&
    issue.message.startsWith('Invalid option')
  ) {
    const allowed = issue.values.map((v) => String(v)).join(', ');
    return [{ path: formatPath(issue.path), message: `must be one of: ${allowed}` }];
  }
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input: expected')) {
    const received = describeValue(valueAt(root, issue.path));
    const message =
      received === 'nothing' ? 'is required' : `must be ${article(issue.expected)}, not ${received}`;
    return [{ path: formatPath(issue.path), message }];
  }
  return [{ path: formatPath(issue.path), message: issue.message }];
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `${typeof value} ${JSON.stringify(value)}`;
}

const article = (type: string): string => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** Names must be unique within each list, and one rule per (scope, action, tool: E4). */
function duplicateIssues(file: WorkspaceFile): Issue[] {
  return [
    ...duplicates(file.agents, 'agents', 'name', (a) => a.name),
    ...duplicates(file.members, 'members', 'nickname', (m) => m.nickname),
    // P20: one member per GitHub login (logins ignore case).
    ...duplicates(file.members, 'members', 'github', (m, i) =>
      m.github === undefined ? `no login ${i}` : m.github.toLowerCase(),
    ),
    ...duplicates(file.skills, 'skills', 'name', (s) => s.name),
    ...duplicates(file.spaces, 'spaces', 'name', (s) => s.name),
    ...duplicates(file.guardrails, 'guardrails', 'action', (g) =>
      g.tool === undefined ? `${g.scope} ${g.action}` : `${g.scope} ${g.action} ${g.tool}`,
    ),
    ...duplicates(file.mcpServers, 'mcpServers', 'name', (s) => s.name),
    // P24: one role per group; the same group twice would leave which one counts to chance.
    ...duplicates(file.access, 'access', '', (a) => accessGroupKey(accessGroupOf(a))),
    ...(file.agents ?? []).flatMap((agent, i) =>
      duplicates(agent.mcpServers, `agents[${i}].mcpServers`, '', (n) => n),
    ),
    ...(file.spaces ?? []).flatMap((space, i) => [
      ...duplicates(space.mcpServers, `spaces[${i}].mcpServers`, '', (n) => n),
      ...duplicates(space.participants, `spaces[${i}].participants`, '', (p) => p),
      ...duplicates(space.repos, `spaces[${i}].repos`, '', (r) => r.toLowerCase()),
      ...duplicates(space.channels, `spaces[${i}].channels`, '', (c) => JSON.stringify(c)),
      // W1: a routine's name is unique in its space.
      ...duplicates(space.routines, `spaces[${i}].routines`, 'name', (r) => r.name),
    ]),
  ];
}

function duplicates<T>(
  items: T[] | undefined,
  list: string,
  field: string,
  key: (item: T, index: number) => string,
): Issue[] {
  const seen = new Map<string, number>();
  const issues: Issue[] = [];
  (items ?? []).forEach((item, index) => {
    const k = key(item, index);
    const first = seen.get(k);
    if (first === undefined) seen.set(k, index);
    else
      issues.push({
        path: `${list}[${index}]${field ? `.${field}` : ''}`,
        message: `duplicates ${list}[${first}]`,
      });
  });
  return issues;
}
