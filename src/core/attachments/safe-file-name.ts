const MAX_NAME_LENGTH = 120;

/**
 * P13: an attachment's name as a plain file name in one folder: no path separators, no
 * leading dots (no hidden files, no `..`), no control characters, at most 120 characters with
 * the extension kept. A name with nothing left becomes `attachment`.
 */
export function safeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/\p{Cc}/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  if (cleaned === '') return 'attachment';
  if (cleaned.length <= MAX_NAME_LENGTH) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 12 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, MAX_NAME_LENGTH - extension.length) + extension;
}

/** Names made distinct within one message (`log.txt`, `log (2).txt`), in order. */
export function distinctFileNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const safe = safeFileName(name);
    let candidate = safe;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
      const dot = safe.lastIndexOf('.');
      candidate = dot > 0 ? `${safe.slice(0, dot)} (${n})${safe.slice(dot)}` : `${safe} (${n})`;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
