const MAX_SUMMARY = 80;

const oneLine = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}…` : line;
};

const field = (input: unknown, name: string): string | undefined => {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * P9: a status-card row's words for a CLI agent's tool call: the command of a Bash call, the
 * path of a file tool, the pattern of a search, else the input in short.
 */
export function summarizeToolInput(input: unknown): string {
  for (const name of ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description']) {
    const value = field(input, name);
    if (value !== undefined && value.trim() !== '') return oneLine(value);
  }
  if (input === undefined || input === null) return '';
  return oneLine(JSON.stringify(input));
}
