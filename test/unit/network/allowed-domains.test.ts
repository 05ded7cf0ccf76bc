import {
  isAllowedDomain,
  isValidAllowedDomain,
  normalizeHost,
} from '../../../src/core/network/allowed-domains';

describe('X2: allowed domains', () => {
  it.each(['api.example.com', 'example.com', '*.example.com', '*.a.b.example.co', 'x-1.example.io'])(
    'X2: %s is a valid entry',
    (entry) => expect(isValidAllowedDomain(entry)).toBe(true),
  );

  it.each([
    'localhost',
    'API.example.com',
    'https://api.example.com',
    'api.example.com:443',
    'api.example.com/path',
    '127.0.0.1',
    '10.0.0.1',
    '*',
    '*.com',
    'api.*.com',
    '-bad.example.com',
    'bad-.example.com',
    '',
    'api..example.com',
    `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`,
  ])('X2: %j is not a valid entry', (entry) => {
    expect(isValidAllowedDomain(entry)).toBe(false);
  });

  it('X2: an exact entry matches that host only', () => {
    expect(isAllowedDomain('api.example.com', ['api.example.com'])).toBe(true);
    expect(isAllowedDomain('x.api.example.com', ['api.example.com'])).toBe(false);
    expect(isAllowedDomain('example.com', ['api.example.com'])).toBe(false);
    expect(isAllowedDomain('api.example.com.evil.io', ['api.example.com'])).toBe(false);
  });

  it('X2: a wildcard matches subdomains only, at any depth, never the bare domain', () => {
    const list = ['*.example.com'];
    expect(isAllowedDomain('api.example.com', list)).toBe(true);
    expect(isAllowedDomain('a.b.example.com', list)).toBe(true);
    expect(isAllowedDomain('example.com', list)).toBe(false);
    expect(isAllowedDomain('badexample.com', list)).toBe(false);
    expect(isAllowedDomain('example.com.evil.io', list)).toBe(false);
  });

  it('X2: hosts compare case-insensitively and without a trailing dot', () => {
    expect(normalizeHost('API.Example.COM.')).toBe('api.example.com');
    expect(isAllowedDomain('API.example.com.', ['api.example.com'])).toBe(true);
  });

  it('X2: an IP literal or an empty list matches nothing', () => {
    expect(isAllowedDomain('127.0.0.1', ['*.example.com', 'example.com'])).toBe(false);
    expect(isAllowedDomain('api.example.com', [])).toBe(false);
  });
});
