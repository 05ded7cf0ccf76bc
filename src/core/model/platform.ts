/** P19: GitHub is a platform too: a repository is a channel, an issue or a pull request a thread. */
export const PLATFORMS = ['slack', 'discord', 'terminal', 'github'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Platforms a workspace (Slack team, Discord guild) can be bound to (P1). */
export const BINDABLE_PLATFORMS = ['slack', 'discord'] as const;
export type BindablePlatform = (typeof BINDABLE_PLATFORMS)[number];
