import { RELAY_LEVELS, type RelayLevel } from '../model/relays/relay-level';

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
