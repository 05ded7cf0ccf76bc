/** M20: a person's message starts depth 1; agents may add at most two further hops. */
export const MAX_WAKE_DEPTH = 3;

/** M19: at most three agents per turn; a reply naming more is a list, not a summons. */
export const MAX_AGENTS_PER_REPLY = 3;
