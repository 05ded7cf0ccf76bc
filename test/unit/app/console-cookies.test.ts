import { randomBytes } from 'node:crypto';
import { CookieSigner, consoleCookie, sameText } from '../../../src/app/console/console-cookies';

describe('the console’s cookies (O5)', () => {
  const signer = new CookieSigner(randomBytes(32));

  it('O5 a signed value verifies; a changed value, a changed signature or another key’s does not', () => {
    const signed = signer.sign('token-abc');
    expect(signer.verify(signed)).toBe('token-abc');
    expect(signer.verify(signed.replace('token-abc', 'token-abd'))).toBeNull();
    expect(signer.verify(`${signed.slice(0, -1)}${signed.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(new CookieSigner(randomBytes(32)).verify(signed)).toBeNull();
    expect(signer.verify(undefined)).toBeNull();
    expect(signer.verify('no-signature')).toBeNull();
  });

  it('O5 cookies are HttpOnly, SameSite=Lax, on /console, and Secure over HTTPS', () => {
    expect(consoleCookie('a', 'b c', { maxAgeSeconds: 60, secure: false })).toBe(
      'a=b%20c; Path=/console; HttpOnly; SameSite=Lax; Max-Age=60',
    );
    expect(consoleCookie('a', '', { maxAgeSeconds: -5, secure: true })).toBe(
      'a=; Path=/console; HttpOnly; SameSite=Lax; Max-Age=0; Secure',
    );
  });

  it('O5 texts compare equal only when they are', () => {
    expect(sameText('abc', 'abc')).toBe(true);
    expect(sameText('abc', 'abd')).toBe(false);
    expect(sameText('abc', 'abcd')).toBe(false);
  });
});
