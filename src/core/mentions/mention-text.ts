import type { MentionSpan } from './mention-candidates';

/**
 * M7: mentions are stripped from the text before it reaches the agent. The tidying here
 * only touches the whitespace and punctuation right around a removed mention, so code
 * blocks, indentation and line breaks elsewhere arrive exactly as typed.
 *
 * Invariant relied on by the person parser's idempotence: tidying never makes an `@` that
 * was glued become free, never creates or removes a blank line, and never puts two backtick
 * runs side by side, so a second read finds the same code and no new mention.
 */

const HORIZONTAL_SPACE = /[ \t]/;
/** A mention that leads its line is an address: `@alice, fix it` becomes `fix it`. */
const ADDRESS_TAIL = /[ \t,:;]*/y;
const TRAILING_HORIZONTAL_SPACE = /[ \t]+$/;
/** Punctuation that closes up to the word before it once a mid-sentence mention is gone. */
const CLOSING_PUNCTUATION = new Set([',', '.', ';', ':', '!', '?']);
/** After these, the space that followed the mention is dropped too: `(@alice fix)` → `(fix)`. */
const OPENING_BRACKETS = new Set(['(', '[', '{', '"', "'", '“', '‘', '«']);

/** `spans` must be sorted and must not overlap. */
export function stripSpans(text: string, spans: readonly MentionSpan[]): string {
  let out = '';
  let position = 0;
  for (const span of spans) {
    out += text.slice(position, span.start);
    let next = span.end;
    const lineStart = out.lastIndexOf('\n') + 1;
    if (/^[ \t]*$/.test(out.slice(lineStart))) {
      out = out.slice(0, lineStart);
      ADDRESS_TAIL.lastIndex = next;
      next += ADDRESS_TAIL.exec(text)?.[0].length ?? 0;
      // A line made only of mentions goes away entirely rather than leaving a blank line.
      const newline = text.startsWith('\r\n', next) ? 2 : text.startsWith('\n', next) ? 1 : 0;
      if (newline > 0) next += newline;
    } else {
      const before = out.at(-1) ?? '';
      if (HORIZONTAL_SPACE.test(before) || OPENING_BRACKETS.has(before)) {
        while (HORIZONTAL_SPACE.test(text[next] ?? '')) next++;
      }
      const after = text[next];
      if (after === undefined || after === '\n' || after === '\r' || CLOSING_PUNCTUATION.has(after)) {
        out = out.replace(TRAILING_HORIZONTAL_SPACE, '');
      }
    }
    position = next;
  }
  return tidyEnds(out + text.slice(position));
}

/** Leading blank lines and trailing whitespace go; the first line keeps its indentation. */
export function tidyEnds(text: string): string {
  return text.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/u, '');
}

/**
 * M7: whether anything is left to act on once the mentions are gone. Whitespace and
 * punctuation alone (`@alice!`, `@alice, @bob.`) are nothing; letters, digits and emoji
 * are something.
 */
export function hasSubstance(text: string): boolean {
  return /[\p{L}\p{N}\p{Extended_Pictographic}]/u.test(text);
}

/** The text with the spans cut out, for `hasSubstance`; no tidying needed. */
export function withoutSpans(text: string, spans: readonly MentionSpan[]): string {
  let out = '';
  let position = 0;
  for (const span of spans) {
    out += text.slice(position, span.start);
    position = span.end;
  }
  return out + text.slice(position);
}
