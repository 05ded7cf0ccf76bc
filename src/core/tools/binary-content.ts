/** A16: how many leading bytes decide whether a file is binary. */
export const BINARY_SNIFF_BYTES = 8000;

/**
 * A16: a file is binary when a NUL byte occurs in its first 8,000 bytes (git's and ripgrep's
 * test): the text tools skip it or refuse it, rather than spend the model's context on it or
 * corrupt it by writing it back as text.
 */
export const looksBinary = (content: Uint8Array): boolean =>
  content.subarray(0, BINARY_SNIFF_BYTES).includes(0);
