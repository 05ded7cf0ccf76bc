import { parseDeadAfter } from '../../../src/config/config';
import { parseServeRole, roleProblem } from '../../../src/config/serve-role';

describe('SUMMON_ROLE', () => {
  it('is all when unset or empty; all, web and worker in any case', () => {
    expect(parseServeRole(undefined)).toBe('all');
    expect(parseServeRole('  ')).toBe('all');
    expect(parseServeRole('Web')).toBe('web');
    expect(parseServeRole('worker')).toBe('worker');
  });

  it('refuses any other value, naming the choices', () => {
    expect(() => parseServeRole('workers')).toThrow(
      'SUMMON_ROLE must be one of all, web, worker (default all), got "workers"',
    );
  });

  it('web and worker need REDIS_URL: the in-process queue cannot be shared', () => {
    expect(roleProblem('all', undefined)).toBeNull();
    expect(roleProblem('web', 'redis://127.0.0.1:6379')).toBeNull();
    expect(roleProblem('worker', undefined)).toMatch(
      /^SUMMON_ROLE=worker needs REDIS_URL: .*cannot be shared/,
    );
    expect(roleProblem('web', undefined)).toMatch(/^SUMMON_ROLE=web needs REDIS_URL/);
  });
});

describe('SUMMON_DEAD_AFTER_MS (A12)', () => {
  it('defaults to 60 s and refuses less than a second', () => {
    expect(parseDeadAfter(undefined)).toBe(60_000);
    expect(parseDeadAfter('2000')).toBe(2000);
    expect(() => parseDeadAfter('500')).toThrow(/at least 1000, got "500"/);
    expect(() => parseDeadAfter('soon')).toThrow(/SUMMON_DEAD_AFTER_MS/);
  });
});
