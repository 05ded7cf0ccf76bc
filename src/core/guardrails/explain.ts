import type { GuardrailAction, GuardrailDecision } from '../model/guardrail';
import type { GuardrailRuleRecord } from '../model/records';
import { defaultDecisionFor } from './default-decisions';
import type { McpRuleSubject } from './mcp-tool-rule';
import type { ClassResolution, GuardrailContext, OverriddenRule } from './resolution';
import { formatScope, scopeKey } from './scope-key';

/** Everything the resolver worked out, for `summon guardrails explain` and the agent. */
export interface ExplainInput {
  classes: readonly GuardrailAction[];
  context: GuardrailContext;
  /** E4: the MCP call's tool, when the `mcp` class is about one. */
  subject?: McpRuleSubject;
  perClass: readonly ClassResolution[];
  deciding: ClassResolution;
  ruleDecision: GuardrailDecision;
  afterAutonomy: GuardrailDecision;
  decision: GuardrailDecision;
  /** G2a: why an `ask` could not be answered; null when it could, or when there was no `ask`. */
  blocker: string | null;
  remedy: string | null;
}

/**
 * `space:backend push_to_remote = deny` (E4: `space:backend mcp linear__* = deny`), in the
 * workspace file's own key syntax.
 */
export function ruleLabel(rule: GuardrailRuleRecord, context: GuardrailContext): string {
  const name =
    rule.scopeKind === 'agent'
      ? (context.agentName ?? rule.scopeId)
      : rule.scopeKind === 'space'
        ? (context.spaceName ?? rule.scopeId)
        : null;
  const tool = rule.tool == null ? '' : ` ${rule.tool}`;
  return `${formatScope(scopeKey(rule.scopeKind, name ?? ''))} ${rule.action}${tool} = ${rule.decision}`;
}

function sourceLabel(resolution: ClassResolution, context: GuardrailContext): string {
  return resolution.decidedBy.kind === 'rule'
    ? `rule ${ruleLabel(resolution.decidedBy.rule, context)}`
    : `the built-in default ${resolution.action} = ${resolution.decision}`;
}

function subject(classes: readonly GuardrailAction[], mcp?: McpRuleSubject): string {
  return classes
    .map((action) => (action === 'mcp' && mcp !== undefined ? `mcp ${mcp.tool}` : action))
    .join(' + ');
}

function actorLine(input: ExplainInput): string {
  const { context } = input;
  const agent = `agent ${context.agentName ?? context.agentId}`;
  const where =
    context.spaceId === null ? 'outside any space' : `in space ${context.spaceName ?? context.spaceId}`;
  return `Action: ${subject(input.classes, input.subject)} by ${agent} ${where} (autonomy ${context.autonomy}).`;
}

function overriddenLine(entry: OverriddenRule, winner: ClassResolution, context: GuardrailContext): string {
  const label = ruleLabel(entry.rule, context);
  if (entry.why === 'less_specific') return `  Overrides the less specific ${label}.`;
  if (entry.why === 'broader_tool') {
    return `  Same scope, broader tool: ${label} (a rule naming the tool beats a server wildcard, which beats a rule for every tool).`;
  }
  if (entry.rule.decision === winner.decision) return `  Same scope, same decision: ${label} (duplicate).`;
  return `  Same scope, less restrictive: ${label} (${winner.decision} beats ${entry.rule.decision}).`;
}

/** Shown only when the default would have said something else; otherwise it is noise. */
function defaultLine(resolution: ClassResolution, mcp: McpRuleSubject | undefined): string[] {
  const fallback = defaultDecisionFor(resolution.action, resolution.action === 'mcp' ? mcp : undefined);
  return fallback === resolution.decision
    ? []
    : [`  Overrides the built-in default ${resolution.action} = ${fallback}.`];
}

/** E4: why the built-in default of an MCP call is what it is. */
function mcpDefaultWhy(mcp: McpRuleSubject | undefined): string {
  if (mcp === undefined) return ' (no tool given: a tool annotated read-only would be allowed)';
  if (mcp.readOnly === true) return ` (${mcp.tool} is annotated read-only)`;
  if (mcp.readOnly === false) return ` (${mcp.tool} is not annotated read-only)`;
  return ' (allow instead if the server annotates the tool read-only)';
}

function classLines(resolution: ClassResolution, input: ExplainInput): string[] {
  const { context } = input;
  const mcp = resolution.action === 'mcp';
  if (resolution.decidedBy.kind === 'default') {
    const what = mcp && input.subject !== undefined ? ` ${input.subject.tool}` : '';
    const why = mcp ? mcpDefaultWhy(input.subject) : '';
    return [
      `${resolution.action}: no rule matches${what}; the built-in default is ${resolution.decision}${why}.`,
    ];
  }
  const within =
    resolution.decidedBy.rule.tool == null ? '' : '; within it, the rule naming the tool most exactly';
  return [
    `${resolution.action}: ${ruleLabel(resolution.decidedBy.rule, context)} decides (the most specific scope with a matching rule${within}).`,
    ...resolution.overridden.map((entry) => overriddenLine(entry, resolution, context)),
    ...defaultLine(resolution, input.subject),
  ];
}

function autonomyLine(input: ExplainInput): string {
  const { ruleDecision, afterAutonomy } = input;
  switch (input.context.autonomy) {
    case 'proposeOnly':
      return ruleDecision === 'deny'
        ? 'Autonomy proposeOnly: every gated action is denied; the agent may still reply.'
        : `Autonomy proposeOnly: every gated action is denied (${ruleDecision} becomes deny); the agent may still reply.`;
    case 'actWithApproval':
      return 'Autonomy actWithApproval: the rules apply as resolved.';
    case 'actFreely':
      if (ruleDecision === 'ask') return 'Autonomy actFreely: ask becomes allow.';
      if (ruleDecision === 'deny') return 'Autonomy actFreely: an explicit deny survives.';
      return `Autonomy actFreely: ${afterAutonomy} stays ${afterAutonomy}.`;
  }
}

function approvalLine(input: ExplainInput): string | null {
  if (input.afterAutonomy !== 'ask') return null;
  if (input.blocker !== null) {
    return `Fail closed: ask needs an answer, but ${input.blocker}; so it is denied.`;
  }
  return 'Approval: a card is posted in the conversation; an owner, admin or approver decides, and an unanswered approval expires as denied.';
}

export function explainSteps(input: ExplainInput): string[] {
  const steps = [actorLine(input), ...input.perClass.flatMap((r) => classLines(r, input))];
  if (input.perClass.length > 1) {
    const parts = input.perClass.map((r) => `${r.action} = ${r.decision}`).join(', ');
    steps.push(`Combined: ${input.ruleDecision}, the most restrictive of ${parts}.`);
  }
  steps.push(autonomyLine(input));
  const approval = approvalLine(input);
  if (approval !== null) steps.push(approval);
  steps.push(`Decision: ${input.decision}.`);
  return steps;
}

/** The one sentence (or two) the agent is told. */
export function explainReason(input: ExplainInput): string {
  const what = subject(input.classes, input.subject);
  const source = sourceLabel(input.deciding, input.context);
  if (input.blocker !== null) {
    const remedy = input.remedy === null ? '' : ` ${input.remedy}`;
    return `${what} is denied: it needs approval (${source}), but ${input.blocker}.${remedy}`;
  }
  if (input.context.autonomy === 'proposeOnly') {
    return `${what} is denied: this space's autonomy is proposeOnly, so every gated action is denied; you may still reply, for example with a proposal.`;
  }
  if (input.context.autonomy === 'actFreely' && input.ruleDecision === 'ask') {
    return `${what} is allowed: this space's autonomy is actFreely, so an ask (${source}) needs no approval.`;
  }
  switch (input.decision) {
    case 'allow':
      return `${what} is allowed by ${source}.`;
    case 'ask':
      return `${what} needs approval first (${source}); an approval card is posted in the conversation.`;
    case 'deny':
      return input.context.autonomy === 'actFreely'
        ? `${what} is denied by ${source}; an explicit deny holds even when autonomy is actFreely.`
        : `${what} is denied by ${source}.`;
  }
}
