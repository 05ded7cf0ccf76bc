import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { auditEvents, pruneAuditLog } from '../../../src/core/audit/audit-log';
import { AppError } from '../../../src/core/errors';
import type { AuditEntry } from '../../../src/core/model/audit/audit-event';
import { silentLogger } from '../../../src/core/ports/logger';
import type { SqlStore } from '../../../src/storage/store/sql-store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from '../storage/workspace-fixture';

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return error instanceof AppError ? error.code : `unexpected: ${String(error)}`;
  }
  return 'no error';
};

const entry = (subject: string, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  kind: 'approval_decided',
  actor: { kind: 'member', id: null, name: 'dana' },
  subject,
  where: 'slack',
  detail: { status: 'approved' },
  ...extra,
});

/** Subjects of a workspace's events, oldest first, as the export reads them. */
const subjects = async (store: SqlStore, slug: string, pageSize = 1000) => {
  const seen: string[] = [];
  for await (const event of auditEvents(store, slug, {}, pageSize)) seen.push(event.subject);
  return seen;
};

/** A garbage collection now (the flag set at run time, the function from a fresh context). */
const collect = (): (() => void) => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
};

describe.each(DATABASE_KINDS)('O4 the audit log on %s', (kind) => {
  let db: TestDatabase;
  let store: SqlStore;
  let a: SeededWorkspace;
  let b: SeededWorkspace;

  beforeEach(async () => {
    db = await openTestDatabase(kind);
    store = db.database.store;
    a = await seedWorkspace(store, 'a');
    b = await seedWorkspace(store, 'b');
  });
  afterEach(() => db.dispose());

  it('O4: an event appended in a transaction that rolls back is not kept; one that commits is, with every field', async () => {
    const failed = store.inWorkspace(a.workspaceId, async (tx) => {
      await tx.audit.append(a.workspaceId, entry('rolled back'));
      throw new Error('the change failed');
    });
    await expect(failed).rejects.toThrow('the change failed');
    await store.inWorkspace(a.workspaceId, (tx) =>
      tx.audit.append(a.workspaceId, entry('kept', { detail: { status: 'approved', lines: ['a', 'b'] } })),
    );
    const events = [];
    for await (const event of auditEvents(store, 'a', { kind: 'approval_decided' })) events.push(event);
    expect(events).toEqual([
      {
        id: expect.any(String),
        workspaceId: a.workspaceId,
        at: expect.any(Date),
        kind: 'approval_decided',
        actor: { kind: 'member', id: null, name: 'dana' },
        subject: 'kept',
        where: 'slack',
        detail: { status: 'approved', lines: ['a', 'b'] },
      },
    ]);
  });

  it('A2, O4: a session of workspace A sees only its own events and cannot add one to B', async () => {
    await store.inWorkspace(b.workspaceId, (tx) => tx.audit.append(b.workspaceId, entry('of b')));
    const seen = await store.inWorkspace(a.workspaceId, (tx) =>
      tx.query<{ workspace_id: string }>('SELECT workspace_id FROM audit_events'),
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((row) => row.workspace_id === a.workspaceId)).toBe(true);
    const pageOfB = await store.inWorkspace(a.workspaceId, (tx) =>
      tx.audit.page(b.workspaceId, {}, null, 10),
    );
    expect(pageOfB.events).toEqual([]);
    expect(
      await codeOf(store.inWorkspace(a.workspaceId, (tx) => tx.audit.append(b.workspaceId, entry('forged')))),
    ).toBe('forbidden');
    expect(await subjects(store, 'b')).not.toContain('forged');
  });

  it('O4: append-only: a tenant session may not update or delete even its own events; the system context may not either', async () => {
    const tenant = (sql: string) => codeOf(store.inWorkspace(a.workspaceId, (tx) => tx.query(sql)));
    expect(await tenant(`UPDATE audit_events SET subject = 'rewritten'`)).toBe('forbidden');
    expect(await tenant('DELETE FROM audit_events')).toBe('forbidden');
    const system = (sql: string) => codeOf(store.transaction((tx) => tx.query(sql)));
    expect(await system(`UPDATE audit_events SET subject = 'rewritten'`)).toBe('forbidden');
    expect(await system('DELETE FROM audit_events')).toBe('forbidden');
    expect(await system('TRUNCATE audit_events')).toBe('forbidden');
    expect(await subjects(store, 'a')).toEqual(['member a-dana']);
  });

  it('O4: retention deletes only the events older than its days, in every workspace, and nothing else', async () => {
    const now = new Date('2026-12-01T12:00:00Z');
    const day = 86_400_000;
    for (const [ws, slug] of [
      [a.workspaceId, 'a'],
      [b.workspaceId, 'b'],
    ] as const) {
      await store.inWorkspace(ws, async (tx) => {
        await tx.audit.append(ws, entry(`${slug} 400 days old`, { at: new Date(now.getTime() - 400 * day) }));
        await tx.audit.append(ws, entry(`${slug} 31 days old`, { at: new Date(now.getTime() - 31 * day) }));
        await tx.audit.append(ws, entry(`${slug} 29 days old`, { at: new Date(now.getTime() - 29 * day) }));
      });
    }
    const clock = { now: () => now };
    expect(await pruneAuditLog({ store, clock, logger: silentLogger }, 365)).toBe(2);
    expect(await pruneAuditLog({ store, clock, logger: silentLogger }, 30)).toBe(2);
    for (const slug of ['a', 'b']) {
      expect((await subjects(store, slug)).filter((s) => s.includes('days old'))).toEqual([
        `${slug} 29 days old`,
      ]);
    }
    // The retention job's permission ended with its statement: a later delete is refused again.
    expect(
      await codeOf(
        store.transaction(async (tx) => {
          await tx.audit.deleteOlderThan(new Date(0));
          await tx.query('DELETE FROM audit_events');
        }),
      ),
    ).toBe('forbidden');
  });

  it('O4: pages by keyset lose and repeat nothing, even among events of the very same microsecond', async () => {
    const at = new Date('2026-11-30T08:00:00.123Z');
    await store.transaction((tx) =>
      tx.query(
        `INSERT INTO audit_events (workspace_id, at, kind, actor_kind, actor_name, subject, place)
         SELECT $1, $2::timestamptz + (CASE WHEN n % 3 = 0 THEN interval '1 microsecond' ELSE interval '0' END),
                'tool_guarded', 'agent', 'alice', 'call ' || n, 'system'
           FROM generate_series(1, 25) AS n`,
        [a.workspaceId, at],
      ),
    );
    const all = (await subjects(store, 'a', 4)).filter((s) => s.startsWith('call '));
    expect(all).toHaveLength(25);
    expect(new Set(all).size).toBe(25);
    const byActor = [];
    for await (const e of auditEvents(store, 'a', { actor: 'ALICE', kind: 'tool_guarded', since: at }, 7))
      byActor.push(e.subject);
    expect(byActor.sort()).toEqual([...all].sort());
  });

  it('O4: an export of 100,000 events streams: the heap holds a page, not the log', async () => {
    const total = 100_000;
    // A detail of a few hundred bytes, so that holding the log would cost far more than the bound.
    await store.transaction((tx) =>
      tx.query(
        `INSERT INTO audit_events (workspace_id, at, kind, actor_kind, actor_name, subject, place, detail)
         SELECT $1, now() - (n || ' seconds')::interval, 'mcp_called', 'agent', 'alice', 'MCP tool linear__list ' || n,
                'mcp', jsonb_build_object('runId', gen_random_uuid()::text, 'note', repeat('x', 300))
           FROM generate_series(1, $2::int) AS n`,
        [b.workspaceId, total],
      ),
    );
    const gc = collect();
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let count = 0;
    let lastAt = 0;
    for await (const event of auditEvents(store, 'b', { kind: 'mcp_called' })) {
      count += 1;
      // Oldest first, across every page.
      expect(event.at.getTime()).toBeGreaterThanOrEqual(lastAt);
      lastAt = event.at.getTime();
      if (count % 10_000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
    }
    expect(count).toBe(total);
    // Held whole, 100,000 events of ~0.5 KB each would be ~50 MB and more; a page is ~0.5 MB.
    expect(peak).toBeLessThan(20 * 1024 * 1024);
  }, 300_000);
});
