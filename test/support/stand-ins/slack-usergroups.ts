/**
 * P24: the stand-in team's user groups and people, as Slack's Web API gives them:
 * `usergroups.list` (ids and handles), `usergroups.users.list` (a group's member ids; an
 * unknown group is `no_such_subteam`), `users.info` (an unknown person is `user_not_found`).
 * Changes are made by a test, which then delivers the event Slack would send
 * (`subteam_members_changed`, built by `membersChanged`).
 */
export class SlackUsergroups {
  private readonly groups = new Map<string, { handle: string; users: Set<string> }>();
  private readonly people = new Map<string, string>();

  /** A user group with its members (ids as Slack's: `S` and capitals or digits). */
  add(id: string, handle: string, users: string[]): void {
    if (!/^S[A-Z0-9]{8,}$/.test(id)) throw new Error(`${id} is not a Slack user group id`);
    this.groups.set(id, { handle, users: new Set(users) });
  }

  /** A person of the team, with the display name `users.info` gives. */
  person(userId: string, displayName: string): void {
    this.people.set(userId, displayName);
  }

  /** The group's members change; returns the `subteam_members_changed` event Slack sends for it. */
  membersChanged(id: string, change: { added?: string[]; removed?: string[] }): Record<string, unknown> {
    const group = this.groups.get(id);
    if (group === undefined) throw new Error(`no user group ${id}`);
    for (const user of change.added ?? []) group.users.add(user);
    for (const user of change.removed ?? []) group.users.delete(user);
    return {
      type: 'subteam_members_changed',
      subteam_id: id,
      team_id: 'T0TEAM0001',
      date_previous_update: 1_700_000_000,
      date_update: 1_700_000_100,
      added_users: change.added ?? [],
      added_users_count: String(change.added?.length ?? 0),
      removed_users: change.removed ?? [],
      removed_users_count: String(change.removed?.length ?? 0),
      event_ts: '1700000100.000100',
    };
  }

  /** Answers one of the three methods (`null`: not one of them). */
  answer(method: string, p: Record<string, unknown>): Record<string, unknown> | null {
    if (method === 'usergroups.list')
      return {
        ok: true,
        usergroups: [...this.groups].map(([id, group]) => ({ id, handle: group.handle, name: group.handle })),
      };
    if (method === 'usergroups.users.list') {
      if (typeof p.usergroup !== 'string') return { ok: false, error: 'invalid_arguments' };
      const group = this.groups.get(p.usergroup);
      return group === undefined
        ? { ok: false, error: 'no_such_subteam' }
        : { ok: true, users: [...group.users] };
    }
    if (method === 'users.info') {
      const name = typeof p.user === 'string' ? this.people.get(p.user) : undefined;
      return name === undefined
        ? { ok: false, error: 'user_not_found' }
        : { ok: true, user: { id: p.user, name, real_name: name, profile: { display_name: name } } };
    }
    return null;
  }
}
