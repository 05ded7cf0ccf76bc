/**
 * R1: what a paired relay's agents may do in a workspace, per direction: `read` lists agents
 * and sessions, `prompt` also sends notes (`send_to_agent`, `ask_agent`), `full` also answers
 * questions (N13).
 */
export const RELAY_LEVELS = ['read', 'prompt', 'full'] as const;
export type RelayLevel = (typeof RELAY_LEVELS)[number];

export function isRelayLevel(value: unknown): value is RelayLevel {
  return typeof value === 'string' && (RELAY_LEVELS as readonly string[]).includes(value);
}

/** R1: a level allows everything of the levels below it. */
export function levelAllows(granted: RelayLevel, needed: RelayLevel): boolean {
  return RELAY_LEVELS.indexOf(granted) >= RELAY_LEVELS.indexOf(needed);
}

/** What each level lets the paired relay's agents do, in words (README, `summon relays list`). */
export const LEVEL_WORDS: Readonly<Record<RelayLevel, string>> = {
  read: 'list agents and sessions',
  prompt: 'list, and send notes to agents',
  full: 'list, send notes, and answer questions',
};
