import { ValidationError } from '../errors';
import type { UsageGrouping } from '../model/usage/usage-report';
import type {
  AgentSummary,
  AskOutcome,
  McpCaller,
  MemberTools,
  PendingApproval,
  ReachableSpace,
  UsageSummary,
} from '../ports/member-tools';
import { usageReport } from '../usage/usage-report';
import { parseSince } from '../usage/usage-since';
import { askAgent } from './ask-agent';
import { decideApproval, listApprovals } from './member-approvals';
import { authenticateMemberToken } from './member-tokens';
import type { MemberToolsDeps } from './member-tools-deps';
import { findReachable, reachableSpaces } from './reachable-spaces';

/**
 * E6: Summon's tools for a member over MCP: the spaces and agents they may reach, a turn asked
 * as them, the approvals they can see and (by role, G4) decide, and the workspace's usage (O3).
 * Every call names the member its token belongs to, read again at each request (P8).
 */
export class MemberToolsService implements MemberTools {
  constructor(private readonly deps: MemberToolsDeps) {}

  authenticate(token: string): Promise<McpCaller | null> {
    return authenticateMemberToken(this.deps.store, token, this.deps.clock.now());
  }

  listSpaces(caller: McpCaller): Promise<ReachableSpace[]> {
    return this.deps.store.inWorkspace(caller.workspace.id, async (tx) =>
      (await reachableSpaces(tx, caller.member)).map(({ space, bindings, agents }) => ({
        name: space.name,
        context: space.context,
        platforms: [...new Set(bindings.map((b) => b.platform))],
        agents: agents.map((a) => a.name),
      })),
    );
  }

  /** The workspace's agents (or one space's), each with the reachable spaces it takes part in. */
  listAgents(caller: McpCaller, request: { space?: string | undefined }): Promise<AgentSummary[]> {
    return this.deps.store.inWorkspace(caller.workspace.id, async (tx) => {
      const reach = await reachableSpaces(tx, caller.member);
      const spacesOf = (agentId: string) =>
        reach.filter((r) => r.agents.some((a) => a.id === agentId)).map((r) => r.space.name);
      const agents =
        request.space === undefined || request.space.trim() === ''
          ? await tx.agents.list(caller.workspace.id)
          : findReachable(reach, request.space).agents;
      return agents.map((agent) => ({ name: agent.name, title: agent.title, spaces: spacesOf(agent.id) }));
    });
  }

  askAgent(
    caller: McpCaller,
    request: { space: string; agent: string; prompt: string },
    signal: AbortSignal,
  ): Promise<AskOutcome> {
    return askAgent(this.deps, caller, request, signal);
  }

  listApprovals(caller: McpCaller): Promise<PendingApproval[]> {
    return listApprovals(this.deps, caller);
  }

  decideApproval(
    caller: McpCaller,
    /** O5: `via: 'console'` when decided in the web console (the card says so). */
    request: { approvalId: string; verdict: 'approve' | 'deny'; via?: 'console' },
  ): Promise<{ approvalId: string; status: string }> {
    return decideApproval(this.deps, caller, request);
  }

  /** O3: what `summon usage` shows for the caller's workspace. */
  async usage(
    caller: McpCaller,
    request: { by?: UsageGrouping | undefined; since?: string | undefined },
  ): Promise<UsageSummary> {
    const by = request.by ?? 'agent';
    const since = sinceOf(request.since, this.deps.clock.now());
    const rows = await usageReport(this.deps.store, caller.workspace.slug, { by, since });
    return { workspace: caller.workspace.slug, since: since.toISOString(), by, rows };
  }
}

/** `summon usage --since`'s reading, its sentence in the tool's words (`since`, not `--since`). */
function sinceOf(text: string | undefined, now: Date): Date {
  try {
    return parseSince(text, now);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(
      `since must be a date (2026-11-01) or a number of days (7d), not "${text ?? ''}".`,
    );
  }
}
