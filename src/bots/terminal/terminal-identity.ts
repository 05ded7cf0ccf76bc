/**
 * Who and where the terminal is: with nothing configured, Summon's front end is a local chat
 * where one person (`you`, the owner of workspace `default`) talks in space `general`.
 */
export interface TerminalIdentity {
  /** The workspace's slug (the terminal names its workspace instead of a team or guild, P1). */
  workspace: string;
  /** The channel bound to the space; thread ids are `terminal:{channel}:{n}`. */
  channel: string;
  /** The member's nickname: the terminal's platform account (P8 resolves it to a member). */
  user: string;
}

export const DEFAULT_TERMINAL_IDENTITY: TerminalIdentity = {
  workspace: 'default',
  channel: 'general',
  user: 'you',
};
