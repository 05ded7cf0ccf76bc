export const AUTHOR_KINDS = ['person', 'agent', 'system'] as const;
export type AuthorKind = (typeof AUTHOR_KINDS)[number];

/** N9: a note's fold state; `auto` follows the turn, the others were set by a person. */
export const NOTE_FOLD_STATES = ['auto', 'open', 'folded'] as const;
export type NoteFoldState = (typeof NOTE_FOLD_STATES)[number];
