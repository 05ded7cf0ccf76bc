/**
 * E2: `${env:NAME}` references in a declared server's strings: credentials stay in Summon's
 * environment and the file and the database hold only their names. NAME is capitals, digits
 * and `_`, not starting with a digit. Any other `${` is refused (`${ENV:x}`, `${env:}`,
 * `${env:lower}`, `${HOME}`, an unclosed `${env:X`) so that a typo is never sent as a literal;
 * `$${` writes a literal `${`, and nothing else is special (`$$`, `$HOME` stay as written). Pure.
 */

export const ENV_NAME_PATTERN = /^[A-Z_][A-Z0-9_]*$/;

/** A string cut into literal text and references, in order. */
export type TextPart = { literal: string } | { variable: string };

export type ParsedText = { ok: true; parts: TextPart[] } | { ok: false; problem: string };

/** `${env:NAME}`, as a file writes a reference. */
export const envReference = (name: string): string => `\${env:${name}}`;

/** E2: `text` as literal parts and references, or the sentence saying what is wrong in it. */
export function parseText(text: string): ParsedText {
  const parts: TextPart[] = [];
  let literal = '';
  let at = 0;
  while (at < text.length) {
    if (text.startsWith('$${', at)) {
      literal += '${';
      at += 3;
      continue;
    }
    if (!text.startsWith('${', at)) {
      literal += text[at];
      at += 1;
      continue;
    }
    const close = text.indexOf('}', at);
    if (close < 0) return { ok: false, problem: `"${text.slice(at)}" is not closed with "}"` };
    const inner = text.slice(at + 2, close);
    const problem = referenceProblem(inner);
    if (problem !== null) return { ok: false, problem };
    if (literal !== '') parts.push({ literal });
    literal = '';
    parts.push({ variable: inner.slice('env:'.length) });
    at = close + 1;
  }
  if (literal !== '') parts.push({ literal });
  return { ok: true, parts };
}

function referenceProblem(inner: string): string | null {
  const written = `\${${inner}}`;
  if (!inner.startsWith('env:'))
    return `"${written}" is not a reference: write \${env:NAME} (or $\${ for a literal \${)`;
  const name = inner.slice('env:'.length);
  if (name === '') return `"${written}" names no variable`;
  if (!ENV_NAME_PATTERN.test(name))
    return `"${written}": a variable name is capital letters, digits and _, not starting with a digit`;
  return null;
}

/** E2: the sentence saying what is wrong with the references in `text`, or null. */
export const referenceProblemIn = (text: string): string | null => {
  const parsed = parseText(text);
  return parsed.ok ? null : parsed.problem;
};

/** E2: the variables `text` refers to, in order of first use (none for a malformed text). */
export function variablesIn(text: string): string[] {
  const parsed = parseText(text);
  if (!parsed.ok) return [];
  const names = parsed.parts.flatMap((part) => ('variable' in part ? [part.variable] : []));
  return [...new Set(names)];
}

/**
 * `text` with every `${` escaped, so that `parseText` gives it back as one literal. A `$` right
 * before a reference cannot be written (it would read as `$${`): it belongs in the value.
 */
// A function, not a replacement string: in one, `$$` stands for a single `$`.
export const escapeLiteral = (text: string): string => text.replaceAll('${', () => '$${');
