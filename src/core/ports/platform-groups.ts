import type { AccessGroup } from '../model/members/access-group';

/** P24: what a platform says of a person and of the workspace's listed groups. */
export interface HeldGroups {
  /** The listed groups the person holds. */
  held: AccessGroup[];
  /** The person's name there (a Discord server nickname or username, Slack's display name); null when the platform does not know them. */
  displayName: string | null;
  /** The listed groups' names the platform knows, by `accessGroupKey` (a Discord role's name, a Slack handle). */
  names: ReadonlyMap<string, string>;
}

/**
 * P24: the platform's side of access by group: which of `listed` (the workspace's `access`
 * groups) a platform user holds in a team or guild, as the platform last reported it (cached
 * by the front end, dropped when the platform reports a change or the connection is rebuilt).
 * A person the platform does not know there (left the server) holds none.
 */
export interface PlatformGroups {
  heldGroups(teamId: string, userId: string, listed: readonly AccessGroup[]): Promise<HeldGroups>;
}
