import { callbackUrl, mcpOAuthCheck } from '../../../../src/adapters/mcp-oauth/oauth-settings';
import type { McpServerSpec } from '../../../../src/core/model/mcp/mcp-server';

const http = (name: string, auth?: 'member' | 'workspace'): McpServerSpec => ({
  name,
  transport: 'http',
  url: `https://${name}.example/mcp`,
  headers: {},
  ...(auth === undefined ? {} : { auth: { kind: 'oauth' as const, tokens: auth } }),
});

describe("summon doctor's OAuth check", () => {
  const key = Buffer.alloc(32, 7);

  it('E5 is ok when no server needs OAuth, or when the key and public URL are set', () => {
    expect(mcpOAuthCheck({ secretKey: undefined, publicUrl: undefined }, [http('plain')])).toEqual([
      { name: 'mcp oauth', status: 'ok', detail: 'no MCP server needs OAuth' },
    ]);
    expect(
      mcpOAuthCheck({ secretKey: key, publicUrl: 'https://summon.example' }, [
        http('linear', 'member'),
        http('notion', 'workspace'),
        http('linear', 'member'),
      ]),
    ).toEqual([{ name: 'mcp oauth', status: 'ok', detail: 'key set; OAuth for linear, notion' }]);
  });

  it('E5 fails naming SUMMON_SECRET_KEY and SUMMON_PUBLIC_URL when a server needs OAuth without them', () => {
    const [noKey, noUrl] = mcpOAuthCheck({ secretKey: undefined, publicUrl: undefined }, [
      http('linear', 'member'),
    ]);
    expect(noKey).toEqual({
      name: 'mcp oauth',
      status: 'fail',
      detail: 'SUMMON_SECRET_KEY is unset; linear needs OAuth and will be refused',
      fix: 'set SUMMON_SECRET_KEY (32 bytes, hex or base64: `openssl rand -base64 32`) and restart',
    });
    expect(noUrl?.detail).toBe('SUMMON_PUBLIC_URL is unset; no authorization link can be made for linear');
    expect(mcpOAuthCheck({ secretKey: key, publicUrl: undefined }, [http('linear', 'member')])).toHaveLength(
      1,
    );
  });

  it('E5 sends people back to the public URL, without a doubled slash', () => {
    expect(callbackUrl('https://summon.example/')).toBe('https://summon.example/mcp/oauth/callback');
  });
});
