import { activeRepoFor, repoDirName } from '../../../src/core/git/active-repo';
import { pushApprovalDetails } from '../../../src/core/git/push-card';
import { parseRefUpdate, sameUpdates, ZERO_ID } from '../../../src/core/git/ref-updates';

const A = '1'.repeat(40);
const B = '2'.repeat(40);
const C = '3'.repeat(40);

describe('G4 the push approval card', () => {
  it('names force-pushes, deletions, tags and new branches, with old → new and commits', () => {
    const details = pushApprovalDetails(
      'acme/api',
      [
        { oldId: A, newId: B, ref: 'refs/heads/main' },
        { oldId: A, newId: ZERO_ID, ref: 'refs/heads/old' },
        { oldId: ZERO_ID, newId: C, ref: 'refs/tags/v2' },
        { oldId: ZERO_ID, newId: C, ref: 'refs/heads/feature' },
      ],
      new Map([
        ['refs/heads/main', { force: true, commits: ['2222222 rewrite'], totalCommits: 3 }],
        ['refs/tags/v2', { force: null, commits: [] }],
      ]),
    );
    expect(details.summary).toBe('push to acme/api main, old, tag v2, feature (FORCE-PUSH, DELETES)');
    expect(details.lines).toEqual([
      'repository acme/api',
      'main: 1111111 → 2222222 — FORCE-PUSH (not a fast-forward)',
      '  2222222 rewrite',
      '  … and 2 more commits',
      'old: 1111111 → (deleted) — DELETES BRANCH',
      'tag v2: (new) → 3333333 — new tag',
      'feature: (new) → 3333333 — new branch',
    ]);
  });

  it('G4 a push of many refs names the first ones and says how many more, counted by kind', () => {
    const updates = Array.from({ length: 150 }, (_, i) => ({
      oldId: i === 149 ? A : ZERO_ID,
      newId: i === 149 ? ZERO_ID : B,
      ref: `refs/heads/b${String(i + 1).padStart(3, '0')}`,
    }));
    const details = pushApprovalDetails('acme/api', updates, new Map());
    expect(details.summary).toBe(
      'push to acme/api b001, b002, b003, b004, b005, b006, b007, b008, b009, b010 and 140 more refs (DELETES)',
    );
    expect(details.lines).toHaveLength(1 + 20 + 1);
    expect(details.lines[20]).toBe('b020: (new) → 2222222 — new branch');
    expect(details.lines.at(-1)).toBe('… and 130 more refs: new branch ×129, DELETES BRANCH ×1');
    const one = pushApprovalDetails('acme/api', updates.slice(0, 11), new Map());
    expect(one.summary).toMatch(/b010 and 1 more ref$/);
    expect(one.lines.some((l) => l.includes('more ref'))).toBe(false);
  });

  it('G4 names a ref in the letters it was pushed with', () => {
    const details = pushApprovalDetails(
      'acme/api',
      [{ oldId: ZERO_ID, newId: B, ref: 'refs/heads/dény' }],
      new Map(),
    );
    expect(details.summary).toBe('push to acme/api dény');
  });

  it('says when a fast-forward could not be verified (never silently)', () => {
    const details = pushApprovalDetails(
      'acme/api',
      [{ oldId: A, newId: B, ref: 'refs/heads/main' }],
      new Map(),
    );
    expect(details.lines[1]).toBe('main: 1111111 → 2222222 — fast-forward not verified');
  });

  it('binds an approval to the exact repo, refs, old and new ids', () => {
    const push = { repo: 'acme/api', updates: [{ oldId: A, newId: B, ref: 'refs/heads/main' }] };
    expect(sameUpdates(push, { ...push, repo: 'ACME/api' })).toBe(true);
    expect(sameUpdates(push, { ...push, repo: 'acme/web' })).toBe(false);
    expect(
      sameUpdates(push, { repo: 'acme/api', updates: [{ oldId: A, newId: C, ref: 'refs/heads/main' }] }),
    ).toBe(false);
    expect(
      sameUpdates(push, { repo: 'acme/api', updates: [{ oldId: C, newId: B, ref: 'refs/heads/main' }] }),
    ).toBe(false);
    expect(
      sameUpdates(push, { repo: 'acme/api', updates: [{ oldId: A, newId: B, ref: 'refs/heads/dev' }] }),
    ).toBe(false);
    expect(sameUpdates(push, { repo: 'acme/api', updates: [...push.updates, ...push.updates] })).toBe(false);
  });

  it('parses ref updates strictly', () => {
    expect(parseRefUpdate(`${A} ${B} refs/heads/main`)).toEqual({
      oldId: A,
      newId: B,
      ref: 'refs/heads/main',
    });
    expect(parseRefUpdate(`${A} ${B} main`)).toBeNull();
    expect(parseRefUpdate(`${ZERO_ID} ${ZERO_ID} refs/heads/x`)).toBeNull();
    expect(parseRefUpdate(`${A.slice(1)} ${B} refs/heads/main`)).toBeNull();
  });
});

describe('A7 the active repo follows writes', () => {
  it('a write under repos/<name>/ activates it; anything else does not', () => {
    expect(activeRepoFor('/w', 'repos/api/src/x.ts')).toBe('api');
    expect(activeRepoFor('/w', '/w/repos/api/README.md')).toBe('api');
    expect(activeRepoFor('/w', 'repos/api')).toBeNull();
    expect(activeRepoFor('/w', 'notes/x.md')).toBeNull();
    expect(activeRepoFor('/w', '../elsewhere/repos/api/x')).toBeNull();
    expect(repoDirName('acme/api')).toBe('api');
  });
});
