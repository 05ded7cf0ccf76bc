import type { MentionSpan } from './mention-candidates';

/**
 * Finding `@token`s in prose. Both parsers share one rule for where a mention may start;
 * they differ in what a token may contain (M6 vs M18) and in how it resolves.
 */

/**
 * Characters after which an `@` still starts a mention: opening brackets and quotes,
 * markdown emphasis, and list separators (`(@alice)`, `**@alice**`, `"@alice"`,
 * `cc:@alice`, `@alice,@bob`). Everything else glues the `@` to the previous token.
 */
const FREE_BEFORE_AT = new Set(['(', '[', '{', '"', "'", '“', '‘', '«', '*', '_', '~', ',', ';', ':']);

/**
 * M17: an @ glued to the previous token is not a mention (`sam@host.com`, `pkg/@scope`,
 * `node@20`). Applied to people too: pasted URLs such as `medium.com/@alice` or
 * `npmjs.com/package/@types/node` must not summon anyone, least of all by prefix (M4).
 * `<@U123>` (a platform's raw user reference, which the bots translate before calling us)
 * is glued by `<` and so never resolves.
 */
export function isFreeMentionStart(text: string, atIndex: number): boolean {
  if (atIndex === 0) return true;
  const before = text[atIndex - 1] ?? '';
  return /\s/u.test(before) || FREE_BEFORE_AT.has(before);
}

/** M6: a person's token is `@(\w+)`, read with Unicode letters, marks and digits. */
const PERSON_TOKEN = /[\p{L}\p{M}\p{N}_]+/uy;

/**
 * M18: an agent's token keeps inner hyphens and dots (`@code-reviewer`, `@v1.2`) but not
 * trailing ones, so `@alice.` and `@alice-` at a sentence's end still read `alice`.
 */
const AGENT_TOKEN = /[\p{L}\p{M}\p{N}_]+(?:[-.]+[\p{L}\p{M}\p{N}_]+)*/uy;

export type TokenGrammar = 'person' | 'agent';

export interface ScanOptions {
  grammar: TokenGrammar;
  /**
   * Whether an `@` right after a mention's token starts another mention (`@alice@bob`).
   * People get this so that stripping `@alice` can never turn a glued `@bob` into a new
   * mention on a second read (stripping stays idempotent). Agents do not (M17 is strict).
   */
  chained: boolean;
}

/**
 * Every mention token in `text`, reading tokens from `masked` (the text with code blanked
 * out, same length; see `maskCode`), so nothing inside code is ever seen (M16).
 * The start rule looks at the original text: an `@` right after a closing backtick is
 * glued to that code.
 */
export function scanMentionTokens(text: string, masked: string, options: ScanOptions): MentionSpan[] {
  const grammar = options.grammar === 'person' ? PERSON_TOKEN : AGENT_TOKEN;
  const spans: MentionSpan[] = [];
  let previousEnd = -1;
  for (let at = masked.indexOf('@'); at !== -1; at = masked.indexOf('@', at + 1)) {
    const chainedHere = options.chained && at === previousEnd;
    if (!chainedHere && !isFreeMentionStart(text, at)) continue;
    grammar.lastIndex = at + 1;
    const token = grammar.exec(masked)?.[0];
    if (token === undefined) continue;
    const span = { token, start: at, end: at + 1 + token.length };
    spans.push(span);
    previousEnd = span.end;
  }
  return spans;
}
