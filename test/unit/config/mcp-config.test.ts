import { parseMcpConfig } from '../../../src/config/mcp-config';

describe('E2 E3 the MCP client settings', () => {
  it('E2 E3 default to 5 minutes idle and 60 s per call', () => {
    expect(parseMcpConfig({})).toEqual({ idleMs: 300_000, callTimeoutMs: 60_000 });
  });

  it('E2 E3 take whole seconds', () => {
    expect(parseMcpConfig({ SUMMON_MCP_IDLE_SECONDS: '30', SUMMON_MCP_CALL_TIMEOUT_SECONDS: ' 5 ' })).toEqual(
      {
        idleMs: 30_000,
        callTimeoutMs: 5_000,
      },
    );
  });

  it('E2 E3 refuse anything else with a sentence naming the variable', () => {
    expect(() => parseMcpConfig({ SUMMON_MCP_IDLE_SECONDS: '2.5' })).toThrow(
      'SUMMON_MCP_IDLE_SECONDS must be a whole number of seconds, at least 1, got "2.5"',
    );
    expect(() => parseMcpConfig({ SUMMON_MCP_CALL_TIMEOUT_SECONDS: '0' })).toThrow(
      'SUMMON_MCP_CALL_TIMEOUT_SECONDS must be a whole number of seconds, at least 1, got "0"',
    );
  });
});
