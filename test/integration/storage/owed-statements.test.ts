import fc from 'fast-check';
import { NotFoundError, ValidationError } from '../../../src/core/errors';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { readableMessage as readable, recordMessages } from '../../support/logged-messages';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { queuedRun, type SeededWorkspace, seedWorkspace } from './workspace-fixture';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * T3 (issue 12, item 5): a transaction's START TRANSACTION, its tenant settings and the writes
 * whose answer nobody reads are owed and go with its next message (`pending-statements.ts`), so
 * a transaction costs fewer round trips — and still means exactly what it meant: all or nothing,
 * in order, a missing row a NotFoundError that rolls everything back.
 */

describe.each(DATABASE_KINDS)('statements owed by a transaction on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;
  /** Every message the store sent to the database (one logged query is one message). */
  let messages: string[] = [];

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
    recordMessages(db.database.dataSource, (query) => void messages.push(readable(query)));
  });
  afterAll(() => db.dispose());
  beforeEach(() => {
    messages = [];
  });

  const inAcme = <T>(work: (tx: SqlStoreTx) => Promise<T>) =>
    db.database.store.inWorkspace(acme.workspaceId, work);
  const runNow = () => inAcme((tx) => tx.runs.findById(acme.runId));

  it('a transaction that sends nothing sends no START TRANSACTION and no COMMIT', async () => {
    expect(await inAcme(async () => 'nothing')).toBe('nothing');
    expect(messages).toEqual([]);
  });

  it('a write alone goes with the START TRANSACTION and the settings; the COMMIT follows', async () => {
    await inAcme((tx) => tx.runs.update(acme.runId, { liveness: 'blocked' }));
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(
      /^START TRANSACTION;\nSELECT set_config\('role'.*;\nWITH found AS \(UPDATE "runs"/s,
    );
    expect(messages[1]).toBe('COMMIT');
    expect((await runNow())?.liveness).toBe('blocked');
  });

  it('writes after the first go with the next statement, in order, and are seen by it', async () => {
    const run = await inAcme(async (tx) => {
      await tx.runs.update(acme.runId, { liveness: 'ok' });
      await tx.runs.update(acme.runId, { error: 'first' });
      await tx.runs.update(acme.runId, { error: 'second' });
      await tx.checkpoints.remove(acme.runId);
      return tx.runs.updateAndRead(acme.runId, { lastEventAt: new Date(Date.UTC(2026, 11, 2)) });
    });
    expect(run).toMatchObject({
      liveness: 'ok',
      error: 'second',
      lastEventAt: new Date(Date.UTC(2026, 11, 2)),
    });
    // The first update with the START; the next three with the update that reads back; COMMIT.
    expect(messages).toHaveLength(3);
    expect(messages[1]?.split(';\n')).toHaveLength(4);
    expect(messages[2]).toBe('COMMIT');
  });

  it('writes still owed at the end go with the COMMIT', async () => {
    await inAcme(async (tx) => {
      await tx.runs.update(acme.runId, { error: null });
      await tx.messages.setPlatformRef(acme.replyId, 'ref-with-commit');
    });
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatch(/^WITH found AS \(UPDATE "messages".*;\nCOMMIT$/s);
    expect((await inAcme((tx) => tx.messages.findById(acme.replyId)))?.platformMessageRef).toBe(
      'ref-with-commit',
    );
  });

  it('a missing row of an owed write is a NotFoundError that rolls the whole transaction back', async () => {
    const before = await runNow();
    await expect(
      inAcme(async (tx) => {
        await tx.runs.update(acme.runId, { error: 'must not stay' });
        await tx.runs.update(UNKNOWN, { error: 'no such run' });
      }),
    ).rejects.toEqual(new NotFoundError(`No run with id ${UNKNOWN} in this workspace.`));
    expect((await runNow())?.error).toBe(before?.error);
  });

  it('A2: another workspace’s run is missing too, and nothing of the transaction stays', async () => {
    const globex = await seedWorkspace(db.database.store, `globex-${kind}`);
    await expect(
      inAcme(async (tx) => {
        await tx.runs.update(acme.runId, { error: 'must not stay either' });
        await tx.runs.update(globex.runId, { error: 'not yours' });
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect((await runNow())?.error).not.toBe('must not stay either');
    const theirs = await db.database.store.inWorkspace(globex.workspaceId, (tx) =>
      tx.runs.findById(globex.runId),
    );
    expect(theirs?.error).not.toBe('not yours');
  });

  it('a run inserted owed (routing’s) goes with the COMMIT as it was given, read back by nobody; a malformed id is refused before anything is sent; one the database refuses rolls the whole transaction back', async () => {
    const newRun = (id: string, conversationId = acme.conversationId) => ({
      ...queuedRun(acme, acme.messageId),
      id,
      conversationId,
    });
    const id = '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d';
    await inAcme(async (tx) => {
      await tx.runs.update(acme.runId, { error: null });
      await tx.runs.insertOwed(newRun(id));
    });
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatch(/^INSERT INTO "runs".*;\nCOMMIT$/s);
    // Nobody reads the row back: no RETURNING.
    expect(messages[1]).not.toMatch(/RETURNING/);
    expect(await inAcme((tx) => tx.runs.findById(id))).toMatchObject({
      id,
      status: 'queued',
      wakeChain: [acme.agentId],
      triggerMessageId: acme.messageId,
    });
    // A conversation that does not exist: the foreign key refuses the run at the commit.
    const other = '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1e';
    await expect(
      inAcme(async (tx) => {
        await tx.runs.update(acme.runId, { error: 'must not stay' });
        await tx.runs.insertOwed(newRun(other, UNKNOWN));
      }),
    ).rejects.toThrow();
    expect(await inAcme((tx) => tx.runs.findById(other))).toBeNull();
    expect((await runNow())?.error).not.toBe('must not stay');
    // An id that is not a uuid is refused before anything is sent: no START TRANSACTION either.
    messages = [];
    const malformed = inAcme((tx) => tx.runs.insertOwed(newRun('not-a-uuid')));
    await expect(malformed).rejects.toThrow(new ValidationError('Not a run id: "not-a-uuid".'));
    expect(messages).toEqual([]);
  });

  it('owed writes are dropped when the work throws after them', async () => {
    await expect(
      inAcme(async (tx) => {
        await tx.runs.update(acme.runId, { liveness: 'ok' });
        await tx.runs.update(acme.runId, { error: 'dropped' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await runNow())?.error).not.toBe('dropped');
  });

  it('any text is written as it was given (values sent as literals)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0')),
        async (text) => {
          const run = await inAcme(async (tx) => {
            await tx.runs.update(acme.runId, { liveness: 'ok' });
            await tx.runs.update(acme.runId, { error: text });
            return tx.runs.findById(acme.runId);
          });
          expect(run?.error).toBe(text);
          const stored = await inAcme((tx) =>
            tx.messages.insert(acme.workspaceId, {
              conversationId: acme.conversationId,
              authorKind: 'agent',
              authorAgentId: acme.agentId,
              authorMemberId: null,
              text,
              mentions: { agents: [{ agentId: acme.agentId, name: text }], members: [] },
              platformMessageRef: null,
              note: null,
            }),
          );
          expect(stored).toMatchObject({
            text,
            mentions: { agents: [{ agentId: acme.agentId, name: text }], members: [] },
          });
          expect(await inAcme((tx) => tx.messages.findById(stored.id))).toEqual(stored);
        },
      ),
      { numRuns: 25 },
    );
  });
});
