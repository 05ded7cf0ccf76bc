import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { seedWorkspace } from './workspace-fixture';

/**
 * Deletes that cascade along several paths at once: the seeded agent wrote a reply and a note,
 * ran the turn the note is linked to, and created and owns conversations. (The whole workspace
 * going is covered in migrations.test.ts.)
 */
describe.each(DATABASE_KINDS)('deleting rows that others refer to on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.dispose());

  const sql = (statement: string, params: unknown[]) =>
    db.database.store.transaction((tx) => tx.query(statement, params));

  it('deleting an agent takes its runs and keeps what it said, without an author', async () => {
    const seeded = await seedWorkspace(db.database.store, 'agent-goes');
    await sql('DELETE FROM agents WHERE id = $1', [seeded.agentId]);
    const after = await db.database.store.transaction(async (tx) => ({
      run: await tx.runs.findById(seeded.runId),
      reply: await tx.messages.findById(seeded.replyId),
      note: await tx.messages.findById(seeded.noteId),
      conversation: await tx.conversations.findById(seeded.conversationId),
      lastAgent: await tx.messages.lastAgentAuthorId(seeded.conversationId),
    }));
    expect(after.run).toBeNull();
    expect(after.reply).toMatchObject({ authorKind: 'agent', authorAgentId: null, text: 'Fixed.' });
    expect(after.note?.note).toMatchObject({ senderAgentId: null, runId: null, senderRelay: 'build-box' });
    expect(after.note?.authorAgentId).toBeNull();
    expect(after.conversation?.ownerAgentId).toBeNull();
    // M3: a deleted agent cannot answer; the conversation falls back to its owner or the space.
    expect(after.lastAgent).toBeNull();
  });

  it('deleting a conversation takes its messages and runs, and unlinks the notes that came from it', async () => {
    const seeded = await seedWorkspace(db.database.store, 'conversation-goes');
    const note = await db.database.store.transaction((tx) => tx.messages.findById(seeded.noteId));
    const source = note?.note?.sourceConversationId ?? '';
    await sql('DELETE FROM conversations WHERE id = $1', [source]);
    expect(
      (await db.database.store.transaction((tx) => tx.messages.findById(seeded.noteId)))?.note,
    ).toMatchObject({ sourceConversationId: null, sourceTitle: 'nightly digest', runId: seeded.runId });

    await sql('DELETE FROM conversations WHERE id = $1', [seeded.conversationId]);
    const [left] = await db.database.store.transaction((tx) =>
      tx.query<{ messages: string; runs: string }>(
        `SELECT (SELECT count(*) FROM messages WHERE conversation_id = $1)::text AS messages,
                (SELECT count(*) FROM runs WHERE conversation_id = $1)::text AS runs`,
        [seeded.conversationId],
      ),
    );
    expect(left).toEqual({ messages: '0', runs: '0' });
  });

  it('deleting a message clears the run’s trigger and reply, and the run stays', async () => {
    const seeded = await seedWorkspace(db.database.store, 'message-goes');
    await sql('DELETE FROM messages WHERE id = ANY($1::uuid[])', [[seeded.messageId, seeded.replyId]]);
    expect(await db.database.store.transaction((tx) => tx.runs.findById(seeded.runId))).toMatchObject({
      triggerMessageId: null,
      replyMessageId: null,
      statusCardRef: '1700000000.000200',
    });
  });
});
