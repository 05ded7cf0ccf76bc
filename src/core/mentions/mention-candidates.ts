/**
 * Who a mention can reach, and how a typed token is compared with a name.
 *
 * Candidates are handed in by the caller in creation order: M5's "earliest-created wins"
 * tie-break is simply the array order, so this module never needs timestamps.
 */

/** An agent a mention may reach (A4: `name` is what mentions resolve). */
export interface AgentCandidate {
  id: string;
  name: string;
}

/** A human member a person's mention may reach (M10: by nickname). */
export interface MemberCandidate {
  id: string;
  nickname: string;
}

/** Where one `@token` sits in the text: `start` is the `@`, `end` is exclusive. */
export interface MentionSpan {
  /** The token as typed, without the `@`. */
  token: string;
  start: number;
  end: number;
}

/**
 * Case-insensitive comparison form (M4, M15). NFC first, so that a name typed with a
 * combining accent compares equal to the same name stored precomposed.
 */
export const foldName = (value: string): string => value.normalize('NFC').toLowerCase();

export type MatchMode = 'exact' | 'exactOrPrefix';

/**
 * The candidates a token reaches, in candidate (creation) order.
 *
 * M4/M5: an exact match shadows every prefix match, so `@arch` reaches an agent named
 * `arch` even when `architect` also exists. Prefix matches are only looked at when no name
 * matches exactly, and only in `exactOrPrefix` mode (M15: agents get exact names only).
 */
export function matchCandidates<T>(
  candidates: readonly T[],
  nameOf: (candidate: T) => string,
  token: string,
  mode: MatchMode,
): T[] {
  const folded = foldName(token);
  if (folded === '') return [];
  const exact = candidates.filter((candidate) => foldName(nameOf(candidate)) === folded);
  if (exact.length > 0 || mode === 'exact') return exact;
  return candidates.filter((candidate) => foldName(nameOf(candidate)).startsWith(folded));
}

/**
 * Groups items by key, keeping the order of first appearance, so that "the agents of a
 * message" come out in the order the person named them.
 */
export function groupInOrder<T>(items: readonly T[], keyOf: (item: T) => string): { first: T; all: T[] }[] {
  const groups = new Map<string, { first: T; all: T[] }>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.all.push(item);
    else groups.set(key, { first: item, all: [item] });
  }
  return [...groups.values()];
}
