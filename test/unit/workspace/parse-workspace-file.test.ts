import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../../../src/core/errors';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';

const fixture = (name: string) =>
  readFileSync(path.join(__dirname, '../../fixtures/workspaces', name), 'utf8');

function refusal(text: string): string[] {
  try {
    parseWorkspaceFile(text);
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('parseWorkspaceFile', () => {
  it('accepts the documented example', () => {
    const file = parseWorkspaceFile(fixture('acme.yaml'));
    expect(file.workspace).toBe('acme');
    expect(file.agents?.map((a) => a.name)).toEqual(['alice', 'bob']);
    expect(file.spaces?.[0]?.channels).toEqual([{ slack: 'C0001' }, { discord: '3001' }]);
  });

  it('accepts a file with only the workspace key', () => {
    expect(parseWorkspaceFile('workspace: tiny\n')).toEqual({ workspace: 'tiny' });
  });

  it('lists every problem of a bad file by path', () => {
    const problems = refusal(`
workspace: Acme
nmae: typo
discord: { guildId: 1000 }
members:
  - { nickname: dana, role: boss }
agents:
  - { name: a, adapter: command }
  - { name: c, silenceTimeoutMinutes: 500, avatarUrl: nope }
  - { name: d, command: "claude -p" }
  - { name: e, reportsTo: e }
  - { name: a, foo: 1 }
spaces:
  - { name: s, dedicated: "yes", channels: [{ irc: "#x" }], repos: [nope] }
guardrails:
  - { scope: team, action: push, decision: maybe }
sandbox:
  allowedDomains: [api.example.com, "https://x.io", "*.com", API.example.com]
  proxy: on
budgets:
  - { scope: team, per: week, tokens: 1.5 }
  - { scope: workspace, per: day }
  - { scope: workspace, per: day, tokens: 10, usd: 1 }
  - { scope: workspace, per: month, usd: -3 }
`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^workspace: must be a slug/),
        'nmae: unknown key',
        expect.stringMatching(/^discord\.guildId: must be a quoted string of digits/),
        'members[0].role: must be one of: owner, admin, approver, member, viewer',
        'agents[0].command: required when adapter is command',
        'agents[1].silenceTimeoutMinutes: must be 1..240',
        'agents[1].avatarUrl: must be an http(s) URL',
        'agents[2].command: only for adapter: command',
        'agents[3].reportsTo: an agent cannot report to itself',
        'agents[4].foo: unknown key',
        'spaces[0].dedicated: must be a boolean, not string "yes"',
        'spaces[0].channels[0]: must be { slack: <channel id> } or { discord: "<channel id>" }',
        'spaces[0].repos[0]: must be a GitHub repository "owner/name"',
        'guardrails[0].scope: must be "workspace", "agent:<name>" or "space:<name>"',
        'guardrails[0].action: must be one of: commit, push_to_remote, open_pull_request, tracker_write, network, mcp',
        'guardrails[0].decision: must be one of: allow, ask, deny',
        expect.stringMatching(/^sandbox\.allowedDomains\[1\]: must be a lowercase host name/),
        expect.stringMatching(/^sandbox\.allowedDomains\[2\]: must be a lowercase host name/),
        expect.stringMatching(/^sandbox\.allowedDomains\[3\]: must be a lowercase host name/),
        'sandbox.proxy: unknown key',
        'budgets[0].scope: must be "workspace", "agent:<name>" or "space:<name>"',
        'budgets[0].per: must be one of: day, month',
        'budgets[0].tokens: must be a whole number of tokens',
        'budgets[1].tokens: a budget sets exactly one of `tokens` or `usd`',
        'budgets[2].tokens: a budget sets exactly one of `tokens` or `usd`',
        'budgets[3].usd: must be more than 0',
      ]),
    );
  });

  it('reports duplicates by the later entry', () => {
    expect(
      refusal(`
workspace: w
agents: [{ name: a }, { name: a }]
guardrails:
  - { scope: workspace, action: commit, decision: allow }
  - { scope: workspace, action: commit, decision: deny }
spaces:
  - { name: s, channels: [{ slack: C0001 }, { slack: C0001 }] }
`),
    ).toEqual([
      'agents[1].name: duplicates agents[0]',
      'guardrails[1].action: duplicates guardrails[0]',
      'spaces[0].channels[1]: duplicates spaces[0].channels[0]',
    ]);
  });

  it.each([
    ['../etc', 'workspace: "../etc"'],
    ['a/b', 'workspace: w\nagents: [{ name: "a/b" }]'],
    ['..', 'workspace: w\nskills: [{ name: ".." }]'],
    ['upper case', 'workspace: w\nspaces: [{ name: Backend }]'],
  ])('refuses a slug that could leave the data directory or is not a slug (%s)', (_label, text) => {
    expect(refusal(text)[0]).toMatch(/must be a slug/);
  });

  it('E4: an mcp rule may name a tool or a server wildcard, one rule per (scope, action, tool); no other rule may', () => {
    const file = parseWorkspaceFile(`
workspace: w
guardrails:
  - { scope: workspace, action: mcp, decision: ask }
  - { scope: workspace, action: mcp, tool: "linear__*", decision: deny }
  - { scope: workspace, action: mcp, tool: linear__list_issues, decision: allow }
`);
    expect(file.guardrails?.map((g) => g.tool ?? '-')).toEqual(['-', 'linear__*', 'linear__list_issues']);
    expect(
      refusal(`
workspace: w
guardrails:
  - { scope: workspace, action: commit, tool: "linear__*", decision: ask }
  - { scope: workspace, action: mcp, tool: create_issue, decision: ask }
`),
    ).toEqual([
      'guardrails[0].tool: only an mcp rule can name a tool; remove it or use action mcp (this rule is about commit)',
      `guardrails[1].tool: must be one MCP tool or a server's tools: write "<server>__<tool>" for one tool (for example "linear__create_issue") or "<server>__*" for every tool of a server`,
    ]);
    expect(
      refusal(`
workspace: w
guardrails:
  - { scope: workspace, action: mcp, tool: "linear__*", decision: ask }
  - { scope: workspace, action: mcp, tool: "linear__*", decision: deny }
`),
    ).toEqual(['guardrails[1].action: duplicates guardrails[0]']);
  });

  it('refuses YAML that does not parse, with its line', () => {
    expect(refusal('workspace: w\nagents: [\n')).toEqual([expect.stringMatching(/^line \d+, column \d+: /)]);
    expect(refusal('workspace: w\nworkspace: v\n')).toEqual([
      expect.stringMatching(/Map keys must be unique/),
    ]);
  });

  it('refuses a document that is not a mapping', () => {
    expect(refusal('- just\n- a list\n')).toEqual([': must be an object, not a list']);
  });
});
