import { DirectoryCache } from '../../../src/storage/store/repositories/directory-cache';

/** T7: the process's directory cache is bounded, per workspace, and keeps one version per workspace. */
describe('T7: the directory cache', () => {
  it('keeps at most its bound of workspaces, dropping the one used least recently', () => {
    const cache = new DirectoryCache({ workspaces: 2, entries: 4 });
    cache.put('w1', 'v', 'k', 1);
    cache.put('w2', 'v', 'k', 2);
    expect(cache.get('w1', 'k')?.value).toBe(1);
    cache.put('w3', 'v', 'k', 3);
    expect(cache.get('w2', 'k')).toBeUndefined();
    expect(cache.get('w1', 'k')?.value).toBe(1);
    expect(cache.get('w3', 'k')?.value).toBe(3);
    expect(cache.size()).toBe(2);
  });

  it('keeps at most its bound of entries per workspace, dropping the oldest', () => {
    const cache = new DirectoryCache({ workspaces: 2, entries: 3 });
    for (let i = 0; i < 10; i += 1) cache.put('w1', 'v', `k${i}`, i);
    expect(cache.size()).toBe(3);
    expect(cache.get('w1', 'k9')?.value).toBe(9);
    expect(cache.get('w1', 'k6')).toBeUndefined();
  });

  it('drops a workspace’s entries when one is kept under another version', () => {
    const cache = new DirectoryCache();
    cache.put('w1', 'v1', 'a', 1);
    cache.put('w1', 'v2', 'b', 2);
    expect(cache.get('w1', 'a')).toBeUndefined();
    expect(cache.get('w1', 'b')).toEqual({ workspaceId: 'w1', version: 'v2', value: 2 });
  });

  it('never answers one workspace with another’s entry, and finds a workspace by the locator that named it', () => {
    const cache = new DirectoryCache();
    cache.put('w1', 'v', 'k', 'one', 'team-1');
    expect(cache.get('w2', 'k')).toBeUndefined();
    expect(cache.find('team-2', 'k')).toBeUndefined();
    expect(cache.find('team-1', 'k')?.workspaceId).toBe('w1');
    cache.drop('w1');
    expect(cache.find('team-1', 'k')).toBeUndefined();
  });
});
