import { MAKE_SECRET_KEY } from '../../config/secret-key';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import { type CheckResult, fail, ok } from '../../core/ports/doctor-check';

/** E5: where every authorization server sends people back, on Summon's web role. */
export const CALLBACK_PATH = '/mcp/oauth/callback';

/** E5: what the OAuth flow needs of Summon's settings. */
export interface McpOAuthSettings {
  secretKey: Buffer | undefined;
  publicUrl: string | undefined;
}

/** E5: why a server that needs OAuth cannot be used without the key (tokens are stored only sealed). */
export const noSecretKey = (server: string): string =>
  `${server} needs OAuth, and Summon stores OAuth tokens only encrypted: set SUMMON_SECRET_KEY (32 bytes, hex or base64; make one with \`${MAKE_SECRET_KEY}\`) and restart Summon.`;

/** E5: why no authorization link can be made without a public URL to come back to. */
export const noPublicUrl = (server: string): string =>
  `${server} needs OAuth, and its authorization server sends people back to SUMMON_PUBLIC_URL${CALLBACK_PATH}: set SUMMON_PUBLIC_URL to where people reach Summon and restart it.`;

/** E5: the redirect URL registered with every authorization server. */
export const callbackUrl = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`;

/**
 * E5: `summon doctor`'s line on OAuth: the servers that need it (across workspaces) and
 * whether the key and the public URL they need are set. Names the variables, never a value.
 */
export function mcpOAuthCheck(settings: McpOAuthSettings, servers: readonly McpServerSpec[]): CheckResult[] {
  const names = [
    ...new Set(servers.flatMap((s) => (s.transport === 'http' && s.auth?.kind === 'oauth' ? [s.name] : []))),
  ];
  if (names.length === 0) return [ok('mcp oauth', 'no MCP server needs OAuth')];
  const listed = names.join(', ');
  const results: CheckResult[] = [];
  if (settings.secretKey === undefined) {
    results.push(
      fail(
        'mcp oauth',
        `SUMMON_SECRET_KEY is unset; ${listed} need${names.length === 1 ? 's' : ''} OAuth and will be refused`,
        `set SUMMON_SECRET_KEY (32 bytes, hex or base64: \`${MAKE_SECRET_KEY}\`) and restart`,
      ),
    );
  }
  if (settings.publicUrl === undefined) {
    results.push(
      fail(
        'mcp oauth',
        `SUMMON_PUBLIC_URL is unset; no authorization link can be made for ${listed}`,
        `set SUMMON_PUBLIC_URL to where people reach Summon (its ${CALLBACK_PATH} answers the authorization servers)`,
      ),
    );
  }
  return results.length > 0 ? results : [ok('mcp oauth', `key set; OAuth for ${listed}`)];
}
