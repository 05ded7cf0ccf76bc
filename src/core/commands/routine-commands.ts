import { memberActor } from '../audit/audit-entries';
import { AppError } from '../errors';
import { SYSTEM_ACTOR } from '../model/audit/audit-event';
import type { MemberRole } from '../model/member';
import type { MemberRecord, WorkspaceRecord } from '../model/records';
import type { CommandContext } from '../ports/command-service';
import type { StoreTx } from '../ports/store';
import {
  changeRoutine,
  findRoutine,
  lastResultInWords,
  listRoutines,
  type RoutineChange,
} from '../routines/routine-control';

/** W5: who may pause, resume, run and delete a routine. */
const ROUTINE_ROLES: readonly MemberRole[] = ['owner', 'admin', 'approver'];
const CHANGES: readonly RoutineChange[] = ['pause', 'resume', 'run', 'delete'];

const USAGE = 'Usage: `/summon routines` (list), or `/summon routines pause|resume|run|delete <name>`.';

/**
 * W5, P17: `/summon routines` in a channel bound to a space: its routines with their next time and
 * last result, for any member; `pause|resume|run|delete <name>` for owners, admins and approvers.
 */
export async function routinesCommand(
  tx: StoreTx,
  scope: { workspace: WorkspaceRecord; member: MemberRecord | null },
  args: readonly string[],
  ctx: CommandContext,
): Promise<string> {
  const binding = await tx.channelBindings.find(ctx.platform, ctx.channelId);
  if (binding === null || binding.workspaceId !== scope.workspace.id)
    return 'This channel is not linked to a space; routines belong to a space.';
  const space = (await tx.spaces.list(scope.workspace.id)).find((s) => s.id === binding.spaceId);
  if (space === undefined) return 'This channel is not linked to a space; routines belong to a space.';
  const [verb, name] = args;
  if (verb === undefined || verb.toLowerCase() === 'list') return listed(tx, scope.workspace.id, space.name);
  const change = CHANGES.find((c) => c === verb.toLowerCase());
  if (change === undefined || name === undefined) return USAGE;
  const role = scope.member?.role;
  if (role === undefined || !ROUTINE_ROLES.includes(role))
    return `Only owners, admins and approvers can ${change} a routine; your role is ${role ?? 'none'}.`;
  try {
    const routine = await findRoutine(tx, scope.workspace.id, name, space.name);
    // O4: the member who typed it, where they typed it.
    const actor = scope.member === null ? SYSTEM_ACTOR : memberActor(scope.member);
    return await changeRoutine(tx, routine, change, ctx.now, { actor, where: ctx.platform });
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

async function listed(tx: StoreTx, workspaceId: string, space: string): Promise<string> {
  const routines = await listRoutines(tx, workspaceId, space);
  if (routines.length === 0)
    return `Space *${space}* has no routines. Declare them under the space in the workspace file.`;
  return [
    `Routines of space *${space}*:`,
    ...routines.map(
      (r) =>
        `• *${r.name}* (@${r.agent}, ${r.trigger}): ${r.paused ? 'paused' : `next ${r.nextDueAt?.toISOString() ?? 'on its trigger'}`}; last: ${lastResultInWords(r.last)}`,
    ),
  ].join('\n');
}
