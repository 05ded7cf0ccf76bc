import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../../src/config/config';
import { parseSecretKey } from '../../../src/config/secret-key';

describe('SUMMON_SECRET_KEY', () => {
  const key = randomBytes(32);

  it('E5 is 32 bytes as 64 hex digits, standard or URL-safe base64; unset or blank is no key', () => {
    expect(parseSecretKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretKey(` ${key.toString('base64url')} `)).toEqual(key);
    expect(parseSecretKey(undefined)).toBeUndefined();
    expect(parseSecretKey('  ')).toBeUndefined();
    expect(loadConfig({ SUMMON_SECRET_KEY: key.toString('hex') }, '/tmp').secretKey).toEqual(key);
    expect(loadConfig({}, '/tmp').secretKey).toBeUndefined();
  });

  it('E5 of another length or form refuses the start with a sentence that never quotes the value', () => {
    const short = randomBytes(16).toString('base64');
    expect(() => parseSecretKey(short)).toThrow(
      'SUMMON_SECRET_KEY must be 32 bytes written as 64 hex digits or in base64 (make one with `openssl rand -base64 32`); the value set (24 characters) is 16 bytes',
    );
    expect(() => loadConfig({ SUMMON_SECRET_KEY: 'not a key!' }, '/tmp')).toThrow(
      'the value set (10 characters) is neither',
    );
    try {
      parseSecretKey(short);
    } catch (error) {
      expect(String(error)).not.toContain(short);
    }
  });
});
