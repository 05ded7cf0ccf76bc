import {
  DISCORD_DEFAULT_API_URL,
  parseConsoleConfig,
  SLACK_DEFAULT_API_URL,
} from '../../../src/config/console-config';

describe('the console’s configuration (O5)', () => {
  it('O5 a sign-in is on with both its client id and secret, through the API base the bot uses', () => {
    const config = parseConsoleConfig({
      SUMMON_PUBLIC_URL: 'https://summon.example.com/',
      SLACK_CLIENT_ID: '1.2',
      SLACK_CLIENT_SECRET: 's',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      DISCORD_CLIENT_ID: '3',
      DISCORD_CLIENT_SECRET: 'd',
    });
    expect(config).toEqual({
      publicUrl: 'https://summon.example.com',
      slack: { clientId: '1.2', clientSecret: 's', apiUrl: 'http://127.0.0.1:9/api/' },
      discord: { clientId: '3', clientSecret: 'd', apiUrl: DISCORD_DEFAULT_API_URL },
    });
    expect(parseConsoleConfig({ SLACK_CLIENT_ID: 'a', SLACK_CLIENT_SECRET: 'b' }).slack?.apiUrl).toBe(
      SLACK_DEFAULT_API_URL,
    );
    expect(parseConsoleConfig({})).toEqual({ publicUrl: undefined, slack: undefined, discord: undefined });
  });

  it('O5 half a client refuses the start, naming what is missing and never the value set', () => {
    expect(() => parseConsoleConfig({ SLACK_CLIENT_ID: '1.2' })).toThrow(
      "SLACK_CLIENT_SECRET is not set but SLACK_CLIENT_ID is: the console's sign-in needs both",
    );
    expect(() => parseConsoleConfig({ DISCORD_CLIENT_SECRET: 'top-secret-value' })).toThrow(
      /^DISCORD_CLIENT_ID is not set but DISCORD_CLIENT_SECRET is/,
    );
    try {
      parseConsoleConfig({ DISCORD_CLIENT_SECRET: 'top-secret-value' });
    } catch (error) {
      expect(String(error)).not.toContain('top-secret-value');
    }
  });
});
