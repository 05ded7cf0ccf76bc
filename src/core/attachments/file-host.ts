/**
 * P13: where a platform's files may be fetched from — its own HTTPS hosts, or the API address
 * it was configured with (a stand-in in tests). A link anywhere else is never fetched (a Slack
 * link would carry the bot token there).
 */
export class FileHost {
  private readonly apiOrigin: string | null;

  constructor(
    apiUrl: string | undefined,
    private readonly isPlatformHost: (hostname: string) => boolean,
  ) {
    this.apiOrigin = apiUrl === undefined ? null : new URL(apiUrl).origin;
  }

  serves(url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (parsed.origin === this.apiOrigin) return true;
    return parsed.protocol === 'https:' && this.isPlatformHost(parsed.hostname);
  }
}
