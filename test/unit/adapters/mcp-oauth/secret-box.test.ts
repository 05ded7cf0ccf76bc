import { randomBytes } from 'node:crypto';
import { digest, SecretBox } from '../../../../src/adapters/mcp-oauth/secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));
  const secret = 'rt-0f8e6c1e-refresh-token';

  it('E5 seals with AES-256-GCM: nothing of the secret in the sealed text, a fresh IV each time', () => {
    const sealed = box.seal(secret, 'row-a');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(box.seal(secret, 'row-a')).not.toBe(sealed);
    expect(box.open(sealed, 'row-a')).toBe(secret);
  });

  it('E5 opens only under the same key and for the row it was sealed for, else a sentence', () => {
    const sealed = box.seal(secret, 'row-a');
    const changedKey =
      'a stored secret does not open with SUMMON_SECRET_KEY: the key changed since it was stored (authorize again)';
    expect(() => box.open(sealed, 'row-b')).toThrow(changedKey);
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'row-a')).toThrow(changedKey);
    const [version, iv, tag, body] = sealed.split('.');
    const flipped = `${version}.${iv}.${tag}.${(body ?? '').startsWith('A') ? 'B' : 'A'}${(body ?? '').slice(1)}`;
    expect(() => box.open(flipped, 'row-a')).toThrow(changedKey);
    expect(() => box.open('plain text', 'row-a')).toThrow('a stored secret is not in a form Summon seals');
    expect(() => new SecretBox(randomBytes(16))).toThrow('SecretBox needs a 32-byte key');
  });

  it('E5 digests a state one way, the same each time', () => {
    expect(digest('state')).toBe(digest('state'));
    expect(digest('state')).not.toContain('state');
    expect(digest('state')).not.toBe(digest('other'));
  });
});
