/**
 * Ref names are bytes on the wire. git itself writes them as UTF-8, so that is how they are
 * read for cards and `remote:` lines; a byte that is not part of valid UTF-8 is kept as `\xNN`,
 * and so is a `\` itself (git forbids it in ref names anyway), so every escape is one. The two
 * functions are exact inverses: the report lines echo the very bytes the client sent.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes of a ref name (or a command line holding one) as text, losslessly. */
export function decodeRefName(bytes: Uint8Array): string {
  try {
    return escapeBackslashes(utf8.decode(bytes));
  } catch {
    return decodeByteWise(bytes);
  }
}

/** The exact bytes `decodeRefName` read. */
export function encodeRefName(text: string): Uint8Array {
  const parts = text.split(/\\x([0-9a-f]{2})/);
  const chunks: Uint8Array[] = [];
  const encoder = new TextEncoder();
  parts.forEach((part, i) => {
    // split with a capture group: odd entries are the escaped bytes.
    chunks.push(i % 2 === 1 ? Uint8Array.of(Number.parseInt(part, 16)) : encoder.encode(part));
  });
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function decodeByteWise(bytes: Uint8Array): string {
  let text = '';
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes[i] ?? 0);
    const decoded = length === 0 ? null : tryDecode(bytes.subarray(i, i + length));
    if (decoded === null) {
      text += `\\x${(bytes[i] ?? 0).toString(16).padStart(2, '0')}`;
      i += 1;
    } else {
      text += escapeBackslashes(decoded);
      i += length;
    }
  }
  return text;
}

/** How many bytes the UTF-8 sequence led by `lead` has (0: not a lead byte). */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function tryDecode(sequence: Uint8Array): string | null {
  try {
    return utf8.decode(sequence);
  } catch {
    return null;
  }
}

const escapeBackslashes = (text: string): string => text.replaceAll('\\', '\\x5c');
