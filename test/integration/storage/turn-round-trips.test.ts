import { TurnWrites } from '../../../src/core/engine/turn/turn-writes';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { readableMessage as readable, recordMessages } from '../../support/logged-messages';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * T3 (issue 34): what a turn writes after its claim costs as few round trips as its meaning
 * allows: its reply with its run and its call's outbox row, the marks of calls that went out,
 * and a model call's usage each go in as few messages as possible, and still mean what they
 * meant (P7: a call's row `sending` before it goes out, `sent` after; O3: the usage added).
 */

describe.each(DATABASE_KINDS)('a turn’s writes, by the messages they send, on %s', (kind) => {
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
  const call = (text: string) => ({
    workspaceId: acme.workspaceId,
    platform: 'slack' as const,
    lane: acme.threadId,
    kind: 'chat.postMessage',
    payload: { text, quote: "it's" },
  });

  it('T3, P7: a reply, the run naming it and its call’s row (on its way) are one message with the START and the COMMIT', async () => {
    let held: { id: string; version: string } | undefined;
    const messageId = await new TurnWrites(db.database.store).storeReply(
      acme.workspaceId,
      { runId: acme.runId, conversationId: acme.conversationId, agentId: acme.agentId, text: 'pong' },
      async (tx) => {
        const { item, version } = await tx.outbox.addSending(call('pong'));
        held = { id: item.id, version };
        expect(item).toMatchObject({
          status: 'sending',
          attempts: 0,
          payload: { text: 'pong', quote: "it's" },
        });
      },
    );
    expect(messages).toHaveLength(1);
    // START, the tenant's settings, the message, the run naming it (prepared before), the call's row, COMMIT.
    const statements = messages[0]?.split(';\n') ?? [];
    expect(statements).toHaveLength(6);
    expect(statements[0]).toBe('START TRANSACTION');
    expect(statements[2]).toMatch(/^INSERT INTO "messages"/);
    expect(statements[3]).toMatch(/UPDATE "runs" SET "reply_message_id"|^EXECUTE summon_/);
    expect(statements[4]).toMatch(/^INSERT INTO outbox/);
    expect(statements[5]).toBe('COMMIT');
    const [run, message, row] = await db.database.store.transaction((tx) =>
      Promise.all([
        tx.runs.findById(acme.runId),
        tx.messages.findById(messageId),
        tx.outbox.state(held?.id ?? ''),
      ]),
    );
    expect(run?.replyMessageId).toBe(messageId);
    expect(message).toMatchObject({ text: 'pong', authorKind: 'agent', authorAgentId: acme.agentId });
    expect(row).toEqual({ status: 'sending', version: held?.version, platformRef: null, lastError: null });
  });

  it('P7, T3: calls that went out are marked sent in one message: START, the marks, COMMIT', async () => {
    const rows = await db.database.store.transaction(async (tx) => [
      (await tx.outbox.addSending(call('one'))).item.id,
      (await tx.outbox.addSending(call('two'))).item.id,
    ]);
    messages = [];
    await db.database.store.transaction((tx) =>
      Promise.all([tx.outbox.markSent(rows[0] ?? '', '1.0001'), tx.outbox.markSent(rows[1] ?? '', null)]),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^START TRANSACTION;\n.*UPDATE outbox.*;\n.*UPDATE outbox.*;\nCOMMIT$/s);
    const unfinished = await db.database.store.transaction((tx) => tx.outbox.unfinished('slack'));
    expect(unfinished.map((item) => item.id)).not.toContain(rows[0]);
    expect(unfinished.map((item) => item.id)).not.toContain(rows[1]);
  });

  it('O3, T3: a model call’s usage goes with the transaction’s next message, and adds up', async () => {
    const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 };
    const before = await inAcme((tx) => tx.usage.tokensOfRuns([acme.runId]));
    messages = [];
    await inAcme(async (tx) => {
      await tx.runs.update(acme.runId, { liveness: 'ok' });
      await tx.usage.addToRun(acme.runId, { model: 'claude-sonnet-4-6', usage, costUsd: 0.00006 });
      await tx.usage.addToRun(acme.runId, { model: 'claude-sonnet-4-6', usage, costUsd: undefined });
      await tx.runs.updateAndRead(acme.runId, { lastEventAt: new Date() });
    });
    // The first update with the START; the usage with the update that reads back; COMMIT.
    expect(messages).toHaveLength(3);
    expect(messages[1]).toMatch(
      /UPDATE runs SET\s+usage_model.*UPDATE runs SET\s+usage_model.*UPDATE "runs"/s,
    );
    const after = await inAcme((tx) => tx.usage.tokensOfRuns([acme.runId]));
    expect((after.get(acme.runId) ?? 0) - (before.get(acme.runId) ?? 0)).toBe(38);
    const [cost] = await db.database.store.transaction((tx) =>
      tx.query('SELECT cost_usd::text AS cost, usage_model FROM runs WHERE id = $1', [acme.runId]),
    );
    expect(cost).toMatchObject({ usage_model: 'claude-sonnet-4-6' });
    expect(Number((cost as { cost: string }).cost)).toBeCloseTo(0.00006, 8);
  });

  it('O3, T3: a finish’s update of its run adds a call’s usage in the same statement, priced or not', async () => {
    const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 };
    const read = () =>
      db.database.store.transaction((tx) =>
        tx.query<{ tokens: string; cost: string | null }>(
          `SELECT (input_tokens + output_tokens + cache_read_tokens + cache_write_tokens)::text AS tokens,
                  cost_usd::text AS cost FROM runs WHERE id = $1`,
          [acme.runId],
        ),
      );
    const [before] = await read();
    messages = [];
    const now = new Date();
    const priced = { model: 'claude-sonnet-4-6', usage, costUsd: 0.00006 };
    const run = await inAcme((tx) => tx.runs.updateAndRead(acme.runId, { lastEventAt: now }, priced));
    expect(run.lastEventAt).toEqual(now);
    expect(messages.join('\n').match(/UPDATE "?runs"? SET/g)).toHaveLength(1);
    await inAcme((tx) => tx.runs.updateAndRead(acme.runId, {}, { ...priced, costUsd: undefined }));
    const [after] = await read();
    expect(Number(after?.tokens) - Number(before?.tokens)).toBe(38);
    expect(Number(after?.cost ?? 0) - Number(before?.cost ?? 0)).toBeCloseTo(0.00006, 8);
  });
});
