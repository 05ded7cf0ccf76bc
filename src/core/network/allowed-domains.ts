/**
 * X2: the workspace's allowed domains (`sandbox.allowedDomains` in the workspace file). An
 * entry is an exact host (`api.example.com`) or a wildcard (`*.example.com`) that matches
 * subdomains only, never `example.com` itself. Pure.
 */

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';

/**
 * A lowercase host name of two or more labels (after the optional `*.`) whose last label is
 * not all digits (so no IP address).
 */
export const DOMAIN_PATTERN = new RegExp(`^(?:\\*\\.)?(?:${LABEL}\\.)+(?=[a-z0-9-]*[a-z-])${LABEL}$`);

export const DOMAIN_RULE =
  'must be a lowercase host name such as "api.example.com" or a wildcard over two labels or more such as "*.example.com" (no scheme, port, path or IP address)';

/** A valid `sandbox.allowedDomains` entry (a wildcard over one label, "*.com", is not). */
export const isValidAllowedDomain = (entry: string): boolean =>
  entry.length <= 253 && DOMAIN_PATTERN.test(entry);

/** The host as a proxy sees it, compared case-insensitively and without a trailing dot. */
export function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** X2: does `host` match one of the entries? An IP literal never does. */
export function isAllowedDomain(host: string, allowedDomains: readonly string[]): boolean {
  const name = normalizeHost(host);
  return allowedDomains.some((entry) =>
    entry.startsWith('*.') ? name.endsWith(entry.slice(1)) && name.length > entry.length - 1 : name === entry,
  );
}
