import { listAgentViews } from '../agents/agent-roster';
import { issueTokenFor } from '../mcp-service/member-tokens';
import { redeemInvite } from '../members/member-invites';
import { canStartWork, type MemberRole } from '../model/member';
import type { MemberRecord, WorkspaceRecord } from '../model/records';
import type { CommandContext, CommandService } from '../ports/command-service';
import type { Store, StoreTx } from '../ports/store';
import { routinesCommand } from './routine-commands';

export type { CommandContext };

const ADMIN_ROLES: readonly MemberRole[] = ['owner', 'admin'];
const FAR_FUTURE = new Date(8.64e15);

export const SUMMON_HELP = [
  '*/summon* commands:',
  '• `help`: this list',
  '• `link <space>`: bind this channel to a space (owners and admins)',
  '• `unlink`: unbind this channel (owners and admins)',
  '• `agents`: the agents and what they are doing',
  '• `status`: turns in progress and approvals waiting',
  '• `link-account <code>`: link your account with the code an admin gave you',
  '• `token`: a personal token for Summon’s MCP endpoint (in a direct message with the bot)',
  '• `dedicated on|off`: whether every message here is answered, without a mention (owners and admins)',
  '• `routines`: this space’s routines, next time and last result; `routines pause|resume|run|delete <name>` (owners, admins, approvers)',
  '• `while-running steer|queue`: whether a message sent while an agent works joins its turn or waits for the next one (owners and admins)',
].join('\n');

type Scope = { workspace: WorkspaceRecord; member: MemberRecord | null };

/**
 * The `/summon` command, the same on every platform: parses the text, checks the sender's role
 * (P8), and answers with one sentence-level text the platform shows only to the sender.
 */
export class SummonCommands implements CommandService {
  constructor(private readonly store: Store) {}

  async run(text: string, ctx: CommandContext): Promise<string> {
    const [verb = 'help', ...args] = text
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    switch (verb.toLowerCase()) {
      case 'help':
        return SUMMON_HELP;
      case 'link-account':
        return this.linkAccount(args, ctx);
      case 'link':
        return this.asAdmin(ctx, (tx, scope) => this.link(tx, scope, args, ctx));
      case 'unlink':
        return this.asAdmin(ctx, (tx, scope) => this.unlink(tx, scope, ctx));
      case 'dedicated':
        return this.asAdmin(ctx, (tx, scope) => this.dedicated(tx, scope, args, ctx));
      case 'while-running':
        return this.asAdmin(ctx, (tx, scope) => this.whileRunning(tx, scope, args, ctx));
      case 'agents':
        return this.agents(ctx);
      case 'status':
        return this.asMember(ctx, (tx, scope) => this.status(tx, scope));
      case 'token':
        return this.token(ctx);
      case 'routines':
        return this.asMember(ctx, (tx, scope) => routinesCommand(tx, scope, args, ctx));
      default:
        return `Unknown command \`${verb}\`. ${SUMMON_HELP}`;
    }
  }

  private scope(tx: StoreTx, ctx: CommandContext): Promise<Scope | null> {
    return tx.platformBindings.find(ctx.platform, ctx.teamId).then(async (binding) => {
      if (binding === null) return null;
      const workspace = await tx.workspaces.findById(binding.workspaceId);
      if (workspace === null) return null;
      const member = await tx.members.findByPlatformUser(workspace.id, ctx.platform, ctx.userId);
      return { workspace, member };
    });
  }

  private asMember(
    ctx: CommandContext,
    work: (tx: StoreTx, scope: Scope) => Promise<string>,
  ): Promise<string> {
    return this.store.transaction(async (tx) => {
      const scope = await this.scope(tx, ctx);
      if (scope === null) return NOT_LINKED;
      if (scope.member === null) return NOT_A_MEMBER;
      return work(tx, scope);
    });
  }

  private asAdmin(
    ctx: CommandContext,
    work: (tx: StoreTx, scope: Scope) => Promise<string>,
  ): Promise<string> {
    return this.asMember(ctx, (tx, scope) => {
      const role = scope.member?.role;
      if (role === undefined || !ADMIN_ROLES.includes(role)) {
        return Promise.resolve(`Only owners and admins can do that; your role is ${role ?? 'none'}.`);
      }
      return work(tx, scope);
    });
  }

  private async linkAccount(args: string[], ctx: CommandContext): Promise<string> {
    const code = args[0];
    if (code === undefined) return 'Usage: `/summon link-account <code>`, with the code an admin gave you.';
    const result = await this.store.transaction((tx) =>
      redeemInvite(tx, {
        code,
        platform: ctx.platform,
        externalTeamId: ctx.teamId,
        userId: ctx.userId,
        now: ctx.now,
      }),
    );
    if (!result.ok) return result.reason;
    const can = canStartWork(result.role) ? 'mention an agent to start work' : 'you can read along';
    return `Linked: you are @${result.nickname} (${result.role}) in Summon; ${can}.`;
  }

  private async link(
    tx: StoreTx,
    { workspace }: Scope,
    args: string[],
    ctx: CommandContext,
  ): Promise<string> {
    const name = args[0];
    if (name === undefined) return 'Usage: `/summon link <space>`.';
    const space = await tx.spaces.findByName(workspace.id, name);
    if (space === null) {
      const known = (await tx.spaces.list(workspace.id)).map((s) => s.name).join(', ') || 'none yet';
      return `There is no space "${name}" (spaces: ${known}). Add it to the workspace file and \`summon apply\`.`;
    }
    const existing = await tx.channelBindings.find(ctx.platform, ctx.channelId);
    if (existing !== null && existing.workspaceId !== workspace.id) {
      return 'This channel is linked to another workspace; unlink it there first.';
    }
    await tx.channelBindings.bind(space.id, ctx.platform, ctx.channelId);
    return `This channel is now linked to space *${space.name}*. Mention an agent to start.`;
  }

  private async unlink(tx: StoreTx, { workspace }: Scope, ctx: CommandContext): Promise<string> {
    const binding = await tx.channelBindings.find(ctx.platform, ctx.channelId);
    if (binding === null || binding.workspaceId !== workspace.id)
      return 'This channel is not linked to a space.';
    const keep = (await tx.channelBindings.listForWorkspace(workspace.id))
      .filter(
        (b) =>
          b.spaceId === binding.spaceId && !(b.platform === ctx.platform && b.channelId === ctx.channelId),
      )
      .map((b) => ({ platform: b.platform, channelId: b.channelId }));
    await tx.channelBindings.unbindOthers(binding.spaceId, keep);
    return 'This channel is no longer linked; agents will not answer here.';
  }

  private async dedicated(
    tx: StoreTx,
    { workspace }: Scope,
    args: string[],
    ctx: CommandContext,
  ): Promise<string> {
    const value = args[0]?.toLowerCase();
    if (value !== 'on' && value !== 'off') return 'Usage: `/summon dedicated on` or `/summon dedicated off`.';
    const binding = await tx.channelBindings.find(ctx.platform, ctx.channelId);
    if (binding === null || binding.workspaceId !== workspace.id) {
      return 'This channel is not linked to a space; link it first with `/summon link <space>`.';
    }
    await tx.spaces.update(binding.spaceId, { dedicated: value === 'on' });
    return value === 'on'
      ? 'Dedicated: every message here is answered, no mention needed.'
      : 'Not dedicated: agents answer when mentioned, and in threads they are part of.';
  }

  /** P16: the space's `whileRunning`: a message while a built-in turn runs steers it, or queues. */
  private async whileRunning(
    tx: StoreTx,
    { workspace }: Scope,
    args: string[],
    ctx: CommandContext,
  ): Promise<string> {
    const value = args[0]?.toLowerCase();
    if (value !== 'steer' && value !== 'queue')
      return 'Usage: `/summon while-running steer` or `/summon while-running queue`.';
    const binding = await tx.channelBindings.find(ctx.platform, ctx.channelId);
    if (binding === null || binding.workspaceId !== workspace.id) {
      return 'This channel is not linked to a space; link it first with `/summon link <space>`.';
    }
    await tx.spaces.update(binding.spaceId, { whileRunning: value });
    return value === 'steer'
      ? 'Steer: a message sent in a thread while an agent works joins its turn at the next step (agents that run a CLI still take it after their turn).'
      : 'Queue: a message sent in a thread while an agent works waits, and starts a turn once the current one ends.';
  }

  /** A12: the roster reads in its own workspace-scoped transaction, so it runs after ours. */
  private async agents(ctx: CommandContext): Promise<string> {
    const scope = await this.store.transaction((tx) => this.scope(tx, ctx));
    if (scope === null) return NOT_LINKED;
    if (scope.member === null) return NOT_A_MEMBER;
    const views = await listAgentViews(this.store, scope.workspace.slug);
    if (views.length === 0) return 'This workspace has no agents yet.';
    return views.map((v) => `• *${v.agent.name}* (${v.agent.title}): ${v.status}`).join('\n');
  }

  /** E6: a personal token for `/mcp`, shown once and only to its member, so only in a direct message. */
  private token(ctx: CommandContext): Promise<string> {
    if (ctx.direct !== true) {
      return Promise.resolve(
        'A personal token is a secret: send `/summon token` in a direct message with me, not in a channel.',
      );
    }
    return this.asMember(ctx, async (tx, { member }) => {
      if (member === null) return NOT_A_MEMBER;
      const token = await issueTokenFor(tx, member);
      return [
        `Your personal token for Summon’s MCP endpoint (shown only now; it acts as @${member.nickname}):`,
        `\`${token}\``,
        'Send it as `Authorization: Bearer <token>` to `/mcp`. An admin revokes it with `summon members token <nickname> --revoke`.',
      ].join('\n');
    });
  }

  private async status(tx: StoreTx, { workspace }: Scope): Promise<string> {
    const runs = (await tx.runs.listByStatus(['queued', 'running'])).filter(
      (r) => r.workspaceId === workspace.id,
    );
    const agents = new Map((await tx.agents.list(workspace.id)).map((a) => [a.id, a.name]));
    const approvals = (await tx.approvals.listPendingDue(FAR_FUTURE)).filter(
      (a) => a.workspaceId === workspace.id,
    );
    const lines = [
      runs.length === 0 ? 'No turns in progress.' : `${runs.length} turn(s) in progress:`,
      ...runs.map((r) => `• ${agents.get(r.agentId) ?? 'an agent'}: ${r.status}`),
      approvals.length === 0 ? 'No approvals waiting.' : `${approvals.length} approval(s) waiting:`,
      ...approvals.map((a) => `• ${a.action}: ${a.details.summary}`),
    ];
    return lines.join('\n');
  }
}

const NOT_LINKED =
  'This team is not linked to a Summon workspace yet; an operator can add it to the workspace file.';
const NOT_A_MEMBER =
  'You are not a member of this Summon workspace yet. Ask an admin for a one-time code (`summon members invite`) and send `/summon link-account <code>`.';
