/**
 * Keeps a tool's output under `max` characters: the head and the tail survive, and the cut
 * is said in the text so the model knows something is missing.
 */
export function capOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - 80);
  const head = text.slice(0, Math.ceil(keep * 0.6));
  const tail = text.slice(text.length - Math.floor(keep * 0.4));
  return `${head}\n[… ${text.length - head.length - tail.length} characters cut: output longer than ${max} …]\n${tail}`;
}
