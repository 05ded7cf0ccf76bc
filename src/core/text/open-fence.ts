const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * P7: the opening line of the code fence still open at the end of `text` (`` ```ts ``), or null.
 * What a reply cut at this point must close, and open again in its next message.
 */
export function openFenceAt(text: string): string | null {
  let open: string | null = null;
  for (const line of text.split('\n')) {
    const match = FENCE.exec(line);
    if (match?.[1] === undefined) continue;
    if (open === null) {
      open = line.trimStart();
      continue;
    }
    const marker = fenceMarkerOf(open);
    if (match[1][0] === marker[0] && match[1].length >= marker.length && line.trim() === match[1])
      open = null;
  }
  return open;
}

/** The fence's marker (`` ``` `` or `~~~`, as long as it was opened with). */
export function fenceMarkerOf(openingLine: string): string {
  return /^(`{3,}|~{3,})/.exec(openingLine)?.[1] ?? '```';
}
