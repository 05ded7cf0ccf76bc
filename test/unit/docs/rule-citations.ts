import * as ts from 'typescript';

/** One family letter, a number from 1 to 99, an optional letter: `M17`, `G2a`, `O3`. */
const ID = String.raw`[MANGPTXROEW][1-9]\d?[a-z]?`;
const ID_OR_RANGE = new RegExp(String.raw`(?<![:\w-])(${ID})(?:\s*[–-]\s*(${ID}))?(?![\w])`, 'g');
const ONLY_IDS = new RegExp(String.raw`^\s*${ID}(\s*[,;/ ]\s*${ID})*\s*$`);

/** `N1–N3` → N1, N2, N3; `G1–G2b` → G1, G2, G2b; a range across families is two ids. */
export function expandRange(from: string, to: string | undefined): string[] {
  if (to === undefined) return [from];
  const a = /^([A-Z])(\d+)([a-z]?)$/.exec(from);
  const b = /^([A-Z])(\d+)([a-z]?)$/.exec(to);
  if (a === null || b === null || a[1] !== b[1]) return [from, to];
  const ids = new Set<string>([from]);
  for (let n = Number(a[2]); n <= Number(b[2]); n += 1) ids.add(`${a[1]}${n}`);
  ids.add(to);
  return [...ids];
}

/** The rule ids a piece of prose cites. */
export function idsInProse(text: string): string[] {
  return [...text.matchAll(ID_OR_RANGE)].flatMap((m) => (m[1] === undefined ? [] : expandRange(m[1], m[2])));
}

/**
 * The rule ids a TypeScript/JavaScript file cites: in its comments and its string literals
 * (test names, messages), never in code (`const T0 = …`) nor in a literal that is only an id
 * or a composite key (`'T1'`, `'slack:T1:Ev1'`: data, not a citation).
 */
export function idsInSource(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const found: string[] = [];
  // What each open `{` belongs to: a block or object, or a template's `${`.
  const braces: ('block' | 'template')[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.CloseBraceToken && braces.pop() === 'template') {
      // The rest of a template literal after `${…}`.
      token = scanner.reScanTemplateToken(false);
    }
    if (token === ts.SyntaxKind.OpenBraceToken) braces.push('block');
    if (token === ts.SyntaxKind.TemplateHead || token === ts.SyntaxKind.TemplateMiddle)
      braces.push('template');
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) {
      found.push(...idsInProse(scanner.getTokenText()));
    } else if (
      token === ts.SyntaxKind.StringLiteral ||
      token === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
      token === ts.SyntaxKind.TemplateHead ||
      token === ts.SyntaxKind.TemplateMiddle ||
      token === ts.SyntaxKind.TemplateTail
    ) {
      const value = scanner.getTokenValue();
      if (!ONLY_IDS.test(value)) found.push(...idsInProse(value));
    }
  }
  return found;
}

/** The rule ids a file cites, by kind: source by its comments and literals, YAML by its comments. */
export function idsInFile(file: string, text: string): string[] {
  if (/\.(ts|js|mjs|cjs)$/.test(file)) return idsInSource(text);
  if (/\.ya?ml$/.test(file))
    return text.split('\n').flatMap((line) => idsInProse(line.replace(/^[^#]*/, '')));
  if (/\.(md|sql)$/.test(file)) return idsInProse(text);
  return [];
}

/** The ids `docs/rules.md` defines: each rule is a list item that starts with its bold id. */
export function definedIds(rulesMarkdown: string): Set<string> {
  return new Set(
    [...rulesMarkdown.matchAll(new RegExp(String.raw`^- \*\*(${ID})\*\*`, 'gm'))].flatMap((m) =>
      m[1] === undefined ? [] : [m[1]],
    ),
  );
}
