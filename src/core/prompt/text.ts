/** Collapses every run of whitespace, newlines included, to one space: for values put on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
