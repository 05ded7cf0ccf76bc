import { z } from 'zod';
import { ACCESS_ROLES, type AccessGrant, type AccessGroup } from '../model/members/access-group';
import type { StoreTx } from '../ports/store';
import type { ChangeReport } from './change-report';

/** P24: a Discord role id as the API gives it: a snowflake, 17 to 20 digits, quoted. */
const discordRoleId = z
  .string({ error: 'must be a quoted Discord role id (digits lose precision as a YAML number)' })
  .regex(/^\d{17,20}$/, 'must be a Discord role id: 17 to 20 digits, quoted');

/** P24: a Slack user group (subteam) id, as `usergroups.list` gives it. */
const slackUsergroupId = z
  .string({ error: 'must be a Slack user group id such as S0123ABCD' })
  .regex(
    /^S[A-Z0-9]{8,}$/,
    'must be a Slack user group id such as S0123ABCD (S and 8 or more capitals or digits)',
  );

/** P24: never `owner`: an owner is only ever named by an explicit member entry. */
const accessRole = z.enum(ACCESS_ROLES, {
  error: (issue) =>
    issue.input === 'owner'
      ? 'cannot be owner: a group gives viewer, member, approver or admin; an owner is named in members'
      : 'must be one of: viewer, member, approver, admin',
});

/**
 * P24: a platform group that admits people with a role: exactly one of `discord: { role }` or
 * `slack: { usergroup }` / `slack: { everyone: true }`.
 */
export const accessEntrySchema = z
  .strictObject({
    discord: z.strictObject({ role: discordRoleId }).optional(),
    slack: z
      .strictObject({
        usergroup: slackUsergroupId.optional(),
        everyone: z.literal(true, { error: 'must be true (every person of the Slack team)' }).optional(),
      })
      .superRefine((slack, context) => {
        if ((slack.usergroup === undefined) === (slack.everyone === undefined))
          context.addIssue({
            code: 'custom',
            path: [],
            message: 'must give exactly one of `usergroup: S…` or `everyone: true`',
          });
      })
      .optional(),
    role: accessRole.meta({ description: 'P24: the role the group gives (never owner).' }),
  })
  .superRefine((entry, context) => {
    if ((entry.discord === undefined) === (entry.slack === undefined))
      context.addIssue({
        code: 'custom',
        path: [],
        message:
          'must name exactly one group: `discord: { role: "<id>" }` or `slack: { usergroup: S… }` / `slack: { everyone: true }`',
      });
  })
  .meta({
    description:
      'P24: people in this Discord server role or Slack user group are admitted with `role`; the highest of their groups counts, and an explicit member entry always wins.',
  });

export type AccessEntry = z.infer<typeof accessEntrySchema>;

/** P24: the group an entry names (the schema has made sure it names exactly one). */
export function accessGroupOf(entry: AccessEntry): AccessGroup {
  if (entry.discord !== undefined) return { platform: 'discord', kind: 'role', id: entry.discord.role };
  if (entry.slack?.usergroup !== undefined)
    return { platform: 'slack', kind: 'usergroup', id: entry.slack.usergroup };
  return { platform: 'slack', kind: 'everyone' };
}

/** P24: a stored grant written back as the file gives it. */
export function accessEntryOf(grant: AccessGrant): AccessEntry {
  const { group, role } = grant;
  if (group.platform === 'discord') return { discord: { role: group.id }, role };
  return group.kind === 'everyone'
    ? { slack: { everyone: true }, role }
    : { slack: { usergroup: group.id }, role };
}

/** P24: `access`, when given, replaces the list (an empty list admits nobody by group); left out, it is kept. */
export async function applyAccess(
  tx: StoreTx,
  workspaceId: string,
  entries: readonly AccessEntry[] | undefined,
  report: ChangeReport,
): Promise<void> {
  if (entries === undefined) return;
  const wanted = entries.map((entry) => ({ group: accessGroupOf(entry), role: entry.role }));
  const current = await tx.accessGroups.listForWorkspace(workspaceId);
  if (JSON.stringify(wanted.map(accessEntryOf)) === JSON.stringify(current.map(accessEntryOf))) return;
  await tx.accessGroups.replace(workspaceId, wanted);
  report.updated.push('access');
}
