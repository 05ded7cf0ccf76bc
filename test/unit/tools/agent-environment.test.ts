import { loadSkillCommands, skillCommands } from '../../../src/core/prompt/skill-commands';
import { agentEnvironment, urlSecrets } from '../../../src/core/tools/agent-environment';
import { summarizeCall, summarizeOutcome } from '../../../src/core/tools/call-summary';

describe('an agent environment carries no Summon secret', () => {
  const env = {
    PATH: '/usr/bin',
    HOME: '/home/summon',
    ANTHROPIC_API_KEY: 'sk-ant-1',
    OPENAI_API_KEY: 'sk-2',
    DATABASE_URL: 'postgres://u:pw-db-123@h/db',
    REDIS_URL: 'redis://:pw-redis-9@h',
    SLACK_BOT_TOKEN: 'xoxb-1',
    DISCORD_TOKEN: 'd-1',
    GITHUB_TOKEN: 'ghp_1',
    SUMMON_DATA_DIR: '/data',
    MY_SERVICE_PASSWORD: 'x',
    COPIED: 'prefix-sk-ant-secret-value-suffix',
    LANG: 'C.UTF-8',
  };
  it('keeps only allow-listed names, and drops an allowed one whose value holds a known secret', () => {
    expect(agentEnvironment(env, { TERM: 'dumb' }, ['sk-ant-secret-value'])).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/summon',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
    });
    expect(
      agentEnvironment({ ...env, PATH: '/bin:/opt/sk-ant-secret-value' }, {}, ['sk-ant-secret-value']),
    ).toEqual({
      HOME: '/home/summon',
      LANG: 'C.UTF-8',
    });
  });
  it('takes the password out of a connection URL', () => {
    expect(urlSecrets('postgres://u:p%40ss@h/db')).toEqual(['p@ss']);
    expect(urlSecrets('redis://h:6379')).toEqual([]);
    expect(urlSecrets(undefined)).toEqual([]);
  });
});

describe('P9: one-line summaries of tool calls', () => {
  it('prefers the telling field, cuts to one line', () => {
    expect(summarizeCall({ input: { command: 'npm test\n&& more' } })).toBe('npm test…');
    expect(summarizeCall({ input: { path: 'src/a.ts', content: 'x' } })).toBe('src/a.ts');
    expect(summarizeCall({ input: { n: 1 } })).toBe('{"n":1}');
    expect(summarizeCall({ input: { command: 'x'.repeat(200) } })).toHaveLength(80);
    const call = { callId: 'c', name: 'bash', input: { command: 'ls' } };
    // A16: a search or glob row shows its pattern rather than the folder it looked in.
    expect(summarizeCall({ input: { pattern: 'TODO|FIXME', path: 'src' } })).toBe('TODO|FIXME');
    expect(summarizeCall({ input: { path: 'src/a.ts', old_string: 'a', new_string: 'b' } })).toBe('src/a.ts');
    expect(summarizeOutcome(call, { ok: false, output: 'Exit code 2.\nls: nope' })).toBe(
      'bash: ls — Exit code 2.…',
    );
  });
});

describe('A5: /skill: commands in a message', () => {
  const skill = (name: string, body: string) => ({
    id: name,
    workspaceId: 'w',
    name,
    description: '',
    body,
    createdAt: new Date(0),
  });
  it('finds /skill:<name> and /skill:<repo>:<name>, once each, not inside words', () => {
    expect(skillCommands('/skill:review then /skill:api:deploy and a/skill:no /skill:Review')).toEqual([
      { name: 'review' },
      { repo: 'api', name: 'deploy' },
    ]);
  });
  it('loads bodies by name (case-insensitive); an unknown skill is said to be missing', () => {
    expect(loadSkillCommands('please /skill:Review this', [skill('review', 'Check tests.')])).toEqual([
      { name: 'Review', body: 'Check tests.' },
    ]);
    expect(loadSkillCommands('/skill:ghost', [])[0]?.body).toMatch(/No skill "ghost" is installed here/);
  });
});
