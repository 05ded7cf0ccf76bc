import type { EntityManager } from 'typeorm';
import { FailedAfterCommitError, NotFoundError, ServiceUnavailableError } from '../../../src/core/errors';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { queryTogether } from '../../../src/storage/store/statements-together';
import { readableMessage as readable, recordMessages } from '../../support/logged-messages';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The transaction's entity manager, for statements the port has no method for (T2 below). */
const managerOf = (tx: SqlStoreTx): EntityManager => (tx as unknown as { manager: EntityManager }).manager;

/**
 * T3 (issue 34): a transaction whose last message carries its COMMIT
 * (`StoreTx.commitWithNextMessage`) is one round trip, and still all or nothing: a statement
 * that fails in that message (or the COMMIT itself) leaves nothing stored and the connection
 * clean; a statement issued after it is refused, loudly, with what was committed kept.
 */
describe.each(DATABASE_KINDS)('a transaction committed with its last message on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;
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
  const errorOfRun = async () => (await inAcme((tx) => tx.runs.findById(acme.runId)))?.error ?? null;

  it('T3: START, the statements and the COMMIT are one message; what was read comes back', async () => {
    const read = await inAcme(async (tx) => {
      tx.commitWithNextMessage();
      const [, found] = await Promise.all([
        tx.runs.update(acme.runId, { error: 'one message' }),
        tx.runs.updateAndRead(acme.runId, { liveness: 'ok' }),
      ]);
      return found;
    });
    expect(read.error).toBe('one message');
    expect(messages).toHaveLength(1);
    const statements = messages[0]?.split(';\n') ?? [];
    expect(statements[0]).toBe('START TRANSACTION');
    expect(statements.at(-1)).toBe('COMMIT');
    expect(await errorOfRun()).toBe('one message');
  });

  it('T3: a statement that fails in the committing message leaves nothing of the transaction stored', async () => {
    await inAcme((tx) => tx.runs.update(acme.runId, { error: 'before' }));
    messages = [];
    const failure = await inAcme(async (tx) => {
      tx.commitWithNextMessage();
      await Promise.all([
        tx.runs.update(acme.runId, { error: 'not kept' }),
        tx.runs.update(UNKNOWN, { error: 'missing' }),
      ]);
    }).catch((error: unknown) => error);
    expect(failure).toEqual(new NotFoundError(`No run with id ${UNKNOWN} in this workspace.`));
    // The failed message (its COMMIT skipped by the server), then the ROLLBACK that ends it.
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/COMMIT$/);
    expect(messages[1]).toBe('ROLLBACK');
    expect(await errorOfRun()).toBe('before');
  });

  it('T3: a COMMIT that fails (a reference checked at commit) leaves nothing stored; the next transaction is clean', async () => {
    await inAcme((tx) => tx.runs.update(acme.runId, { error: 'before' }));
    const failure = await inAcme(async (tx) => {
      tx.commitWithNextMessage();
      await Promise.all([
        tx.runs.update(acme.runId, { error: 'not kept either' }),
        tx.messages.insertOwed(acme.workspaceId, {
          id: '11111111-1111-4111-8111-111111111111',
          conversationId: UNKNOWN,
          authorKind: 'agent',
          authorAgentId: acme.agentId,
          authorMemberId: null,
          text: 'nowhere',
          mentions: { agents: [], members: [] },
          platformMessageRef: null,
          note: null,
        }),
        tx.runs.findById(acme.runId),
      ]);
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NotFoundError);
    expect(await errorOfRun()).toBe('before');
    const stray = await db.database.store.transaction((tx) =>
      tx.query(`SELECT 1 FROM messages WHERE text = 'nowhere'`),
    );
    expect(stray).toEqual([]);
  });

  it('T3: a statement issued after the committing message is refused; what was committed stays', async () => {
    const failure = await inAcme(async (tx) => {
      tx.commitWithNextMessage();
      await tx.runs.update(acme.runId, { error: 'committed' });
      await tx.runs.update(acme.runId, { error: 'refused' });
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FailedAfterCommitError);
    expect(String((failure as Error).message)).toMatch(/after the message that carried/);
    expect(await errorOfRun()).toBe('committed');
    // Neither a second message nor a ROLLBACK went out for it.
    expect(messages.slice(0, 1)[0]).toMatch(/^START TRANSACTION;.*COMMIT$/s);
    expect(messages[1]).not.toBe('ROLLBACK');
  });

  it('T3: a refused statement fails the transaction even when the work catches the refusal and returns', async () => {
    const failure = await inAcme(async (tx) => {
      tx.commitWithNextMessage();
      await tx.runs.update(acme.runId, { error: 'committed' });
      await tx.runs.update(acme.runId, { error: 'dropped' }).catch(() => {});
      return 'looks whole';
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FailedAfterCommitError);
    expect(String((failure as Error).message)).toMatch(/after the message that carried/);
    expect(await errorOfRun()).toBe('committed');
  });

  it('T2: a connection lost while the committing message is on its way may have stored it: reported so, not run again', async () => {
    if (kind !== 'postgres') return;
    // The system context: a tenant may not end a session.
    const failure = await db.database.store
      .transaction(async (tx) => {
        tx.commitWithNextMessage();
        await Promise.all([
          tx.runs.update(acme.runId, { error: 'maybe' }),
          // The session ends inside the message, before its COMMIT (as a server's crash would).
          queryTogether(managerOf(tx), ['SELECT pg_terminate_backend(pg_backend_pid())']),
        ]);
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect(failure).toMatchObject({ service: 'database', maybeDone: true });
    expect(await errorOfRun()).not.toBe('maybe');
  });

  it('T2: the same when the work keeps its statements’ failure and returns (as `TurnWrites` keeps each turn’s)', async () => {
    if (kind !== 'postgres') return;
    const failure = await db.database.store
      .transaction(async (tx) => {
        tx.commitWithNextMessage();
        const settled = await Promise.allSettled([
          tx.runs.update(acme.runId, { error: 'maybe too' }),
          queryTogether(managerOf(tx), ['SELECT pg_terminate_backend(pg_backend_pid())']),
        ]);
        return settled.map((outcome) => outcome.status);
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect(failure).toMatchObject({ service: 'database', maybeDone: true });
    expect(await errorOfRun()).not.toBe('maybe too');
  });
});
