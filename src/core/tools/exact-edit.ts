export type ExactEdit = { ok: true; content: string; replaced: number } | { ok: false; reason: string };

/**
 * A16: an edit by exact replacement. The old text must occur exactly once (or `replaceAll`
 * is asked for), so an edit never lands on a place the model did not mean; each refusal says
 * what to do instead.
 */
export function exactEdit(
  content: string,
  oldString: string,
  newString: string,
  replaceAll = false,
): ExactEdit {
  if (oldString === '') {
    return {
      ok: false,
      reason:
        'Refused: old_string is empty. Give the exact text to replace, or use write_file to create a file.',
    };
  }
  if (oldString === newString) {
    return {
      ok: false,
      reason: 'Refused: old_string and new_string are the same; there is nothing to change.',
    };
  }
  const count = occurrences(content, oldString);
  // A16: a model writes line breaks as \n; a file whose lines end in \r\n keeps its own.
  if (count === 0 && content.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
    const crlf = (text: string) => text.replace(/\r?\n/g, '\r\n');
    return exactEdit(content, crlf(oldString), crlf(newString), replaceAll);
  }
  if (count === 0) {
    return {
      ok: false,
      reason:
        'Refused: old_string was not found in the file. It must match the file exactly (spaces, indentation and line breaks included, without the line numbers read_file shows); read the file again and copy the text.',
    };
  }
  if (count > 1 && !replaceAll) {
    return {
      ok: false,
      reason: `Refused: old_string occurs ${count} times in the file. Include more of the surrounding text so it occurs once, or set replace_all to replace every occurrence.`,
    };
  }
  // split/join: the replacement is literal text (no `$&` patterns as String.replace would read).
  return { ok: true, content: content.split(oldString).join(newString), replaced: count };
}

function occurrences(content: string, needle: string): number {
  let count = 0;
  for (let at = content.indexOf(needle); at !== -1; at = content.indexOf(needle, at + needle.length)) count++;
  return count;
}
