import type { WebClient } from '@slack/web-api';
import { type AccessGroup, accessGroupKey } from '../../core/model/members/access-group';
import type { Logger } from '../../core/ports/logger';
import type { HeldGroups, PlatformGroups } from '../../core/ports/platform-groups';

/**
 * P24: a person's Slack user groups: each listed group's members read once with
 * `usergroups.users.list` and kept until Slack reports a change (`subteam_members_changed`,
 * `subteam_updated`: that group is read again at its next use) or the connection is rebuilt
 * (`forget`: events of the gap are not replayed); handles from `usergroups.list`, names from
 * `users.info`, cached alike. `everyone` is every person of the bound team (the event's team).
 */
export class SlackGroups implements PlatformGroups {
  private readonly members = new Map<string, Promise<ReadonlySet<string> | null>>();
  private readonly people = new Map<string, Promise<string | null>>();
  private handles: Promise<ReadonlyMap<string, string>> | null = null;

  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
  ) {}

  async heldGroups(_teamId: string, userId: string, listed: readonly AccessGroup[]): Promise<HeldGroups> {
    const slack = listed.filter((group) => group.platform === 'slack');
    const [names, displayName, held] = await Promise.all([
      this.handlesOf(slack),
      this.nameOf(userId),
      Promise.all(slack.map(async (group) => ((await this.holds(group, userId)) ? [group] : []))),
    ]);
    return { held: held.flat(), displayName, names };
  }

  /** `subteam_members_changed` / `subteam_updated`: the group's members and handles are read again. */
  invalidate(usergroupId: string): void {
    this.members.delete(usergroupId);
    this.handles = null;
  }

  /** A new connection: whatever changed meanwhile was not told; everything is read again. */
  forget(): void {
    this.members.clear();
    this.people.clear();
    this.handles = null;
  }

  private async holds(group: AccessGroup, userId: string): Promise<boolean> {
    if (group.kind === 'everyone') return true;
    if (group.kind !== 'usergroup') return false;
    let users = this.members.get(group.id);
    if (users === undefined) {
      users = this.usersOf(group.id);
      this.members.set(group.id, users);
    }
    const found = await users;
    // Not knowing is not holding: refused now, asked again at the next event.
    if (found === null) this.members.delete(group.id);
    return found?.has(userId) ?? false;
  }

  private async usersOf(usergroup: string): Promise<ReadonlySet<string> | null> {
    try {
      const answer = await this.client.usergroups.users.list({ usergroup });
      return new Set(answer.users ?? []);
    } catch (error) {
      this.logger.warn({ usergroup, err: String(error) }, 'a Slack user group’s members could not be read');
      return null;
    }
  }

  private handlesOf(listed: readonly AccessGroup[]): Promise<ReadonlyMap<string, string>> {
    if (!listed.some((group) => group.kind === 'usergroup')) return Promise.resolve(new Map());
    this.handles ??= this.client.usergroups
      .list({})
      .then(
        (answer) =>
          new Map(
            (answer.usergroups ?? []).flatMap((group) =>
              group.id === undefined || group.handle === undefined
                ? []
                : [[accessGroupKey({ platform: 'slack', kind: 'usergroup', id: group.id }), group.handle]],
            ),
          ),
      )
      .catch((error: unknown) => {
        this.handles = null;
        this.logger.warn({ err: String(error) }, 'Slack user groups could not be listed');
        return new Map();
      });
    return this.handles;
  }

  private nameOf(userId: string): Promise<string | null> {
    let name = this.people.get(userId);
    if (name === undefined) {
      name = this.client.users
        .info({ user: userId })
        .then(({ user }) => user?.profile?.display_name || user?.real_name || user?.name || null)
        .catch(() => {
          this.people.delete(userId);
          return null;
        });
      this.people.set(userId, name);
    }
    return name;
  }
}
