import { resolveGuardrail, toolRuleProblem } from '../../../src/core/guardrails';
import { ALICE, BACKEND, context, input, mcpRule } from './fixtures';

const named = () => context({ agentName: 'alice', spaceName: 'backend' });
const call = (tool: string, readOnly?: boolean) => ({
  tool,
  ...(readOnly === undefined ? {} : { readOnly }),
});

describe('E4: mcp rules narrowed to a tool', () => {
  it('E4: with no rule, a tool annotated read-only is allowed and any other asks', () => {
    const read = resolveGuardrail(input({ action: 'mcp', subject: call('linear__list_issues', true) }));
    const write = resolveGuardrail(input({ action: 'mcp', subject: call('linear__create_issue', false) }));
    const unknown = resolveGuardrail(input({ action: 'mcp' }));
    expect([read.decision, write.decision, unknown.decision]).toEqual(['allow', 'ask', 'ask']);
    expect(read.steps[1]).toBe(
      'mcp: no rule matches linear__list_issues; the built-in default is allow (linear__list_issues is annotated read-only).',
    );
    expect(write.reason).toBe(
      'mcp linear__create_issue needs approval first (the built-in default mcp = ask); an approval card is posted in the conversation.',
    );
  });

  it('E4: inside one scope the tool beats its server wildcard, which beats a rule for every tool', () => {
    const rules = [
      mcpRule(`space:${BACKEND}`, 'deny'),
      mcpRule(`space:${BACKEND}`, 'ask', 'linear__*'),
      mcpRule(`space:${BACKEND}`, 'allow', 'linear__create_issue'),
      mcpRule(`space:${BACKEND}`, 'deny', 'github__*'),
    ];
    const decide = (tool: string) =>
      resolveGuardrail(input({ action: 'mcp', rules, subject: call(tool, false), context: named() }));
    expect(decide('linear__create_issue').decision).toBe('allow');
    expect(decide('linear__delete_issue').decision).toBe('ask');
    expect(decide('jira__create_issue').decision).toBe('deny');
    expect(decide('linear__create_issue').steps).toMatchInlineSnapshot(`
[
  "Action: mcp linear__create_issue by agent alice in space backend (autonomy actWithApproval).",
  "mcp: space:backend mcp linear__create_issue = allow decides (the most specific scope with a matching rule; within it, the rule naming the tool most exactly).",
  "  Same scope, broader tool: space:backend mcp linear__* = ask (a rule naming the tool beats a server wildcard, which beats a rule for every tool).",
  "  Same scope, broader tool: space:backend mcp = deny (a rule naming the tool beats a server wildcard, which beats a rule for every tool).",
  "  Overrides the built-in default mcp = ask.",
  "Autonomy actWithApproval: the rules apply as resolved.",
  "Decision: allow.",
]
`);
  });

  it('E4, G2: scope specificity comes first: a space rule for every tool beats an agent rule naming the tool', () => {
    const rules = [
      mcpRule(`agent:${ALICE}`, 'allow', 'linear__create_issue'),
      mcpRule(`space:${BACKEND}`, 'deny'),
    ];
    const r = resolveGuardrail(input({ action: 'mcp', rules, subject: call('linear__create_issue', true) }));
    expect(r.decision).toBe('deny');
    expect(r.decidedBy).toEqual({ kind: 'rule', rule: rules[1] });
  });

  it('E4: a rule naming another tool is ignored, so the read-only default still decides', () => {
    const rules = [
      mcpRule('workspace', 'deny', 'github__*'),
      mcpRule('workspace', 'deny', 'linear__create_issue'),
    ];
    const r = resolveGuardrail(input({ action: 'mcp', rules, subject: call('linear__list_issues', true) }));
    expect(r.decision).toBe('allow');
    expect(r.decidedBy).toEqual({ kind: 'default' });
  });

  it('E4: a rule naming a tool never decides a call whose tool is not given', () => {
    const rules = [mcpRule('workspace', 'allow', 'linear__*')];
    expect(resolveGuardrail(input({ action: 'mcp', rules })).decision).toBe('ask');
  });

  it('E4: only an mcp rule may name a tool, written as <server>__<tool> or <server>__*', () => {
    expect(toolRuleProblem('mcp', 'linear__create_issue')).toBeNull();
    expect(toolRuleProblem('mcp', 'linear__*')).toBeNull();
    expect(toolRuleProblem('mcp', null)).toBeNull();
    expect(toolRuleProblem('commit', null)).toBeNull();
    expect(toolRuleProblem('commit', 'linear__*')).toBe(
      'Only an mcp rule can name a tool; "commit" is not about MCP tools, so remove "tool: linear__*" or use action mcp.',
    );
    expect(toolRuleProblem('mcp', 'create_issue')).toBe(
      'The tool "create_issue" cannot be read: write "<server>__<tool>" for one tool (for example "linear__create_issue") or "<server>__*" for every tool of a server.',
    );
    expect(toolRuleProblem('mcp', 'linear__cre*')).not.toBeNull();
  });
});
