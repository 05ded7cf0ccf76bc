import { DEFAULT_CLI_MODEL_HOST, modelEndpoints } from '../../../src/adapters/egress-proxy/cli-agent-egress';

describe('X2: the model API a CLI agent always reaches', () => {
  it('X2: Claude Code’s default API when no base URL is given', () => {
    expect(modelEndpoints({})).toEqual({ hosts: [DEFAULT_CLI_MODEL_HOST], forwards: [] });
  });

  it('X2: the host of ANTHROPIC_BASE_URL instead, and of OPENAI_BASE_URL', () => {
    expect(
      modelEndpoints({
        ANTHROPIC_BASE_URL: 'https://llm.corp.example/v1',
        OPENAI_BASE_URL: 'https://api.openai.com/v1',
      }),
    ).toEqual({ hosts: ['llm.corp.example', 'api.openai.com'], forwards: [] });
  });

  it('X2: a model server on loopback is forwarded on its port, not proxied', () => {
    expect(modelEndpoints({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000' })).toEqual({
      hosts: [],
      forwards: [{ port: 4000, target: { host: '127.0.0.1', port: 4000 } }],
    });
    expect(modelEndpoints({ ANTHROPIC_BASE_URL: 'http://localhost', OPENAI_BASE_URL: 'not a url' })).toEqual({
      hosts: [],
      forwards: [{ port: 80, target: { host: '127.0.0.1', port: 80 } }],
    });
  });
});
