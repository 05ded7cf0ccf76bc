/** P13: a text file as the prompt shows it: at most `maxChars` characters, cut at a line when it can be. */
export interface TextExcerpt {
  text: string;
  /** Characters of the whole file. */
  totalChars: number;
  cut: boolean;
}

export function textExcerpt(bytes: Uint8Array, maxChars: number): TextExcerpt {
  const whole = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  if (whole.length <= maxChars) return { text: whole, totalChars: whole.length, cut: false };
  const head = whole.slice(0, Math.max(0, maxChars));
  const lineEnd = head.lastIndexOf('\n');
  // Cut at the last whole line unless that would drop most of what fits.
  const text = lineEnd >= maxChars / 2 ? head.slice(0, lineEnd) : head;
  return { text, totalChars: whole.length, cut: true };
}

/** A fence longer than any run of backticks in `text`, so the file cannot close it. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}
