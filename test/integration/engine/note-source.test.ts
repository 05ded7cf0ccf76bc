import { noteSourceOf } from '../../../src/core/engine/cards/note-source';
import type { MessageRecord, NoteFields } from '../../../src/core/model/conversation-records';
import type { StoreTx } from '../../../src/core/ports/store';
import { ensureLocalChat } from '../../../src/core/workspace/local-chat';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

describe('N1–N3: a note’s badge is read from the store', () => {
  let db: TestDatabase;
  let note: (fields: Partial<NoteFields>) => Promise<MessageRecord>;
  let sourceId: string;
  const SOURCE_THREAD = 'slack:C0GENERAL1:1764700000.000001';

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    const store = db.database.store;
    const made = await store.transaction(async (tx: StoreTx) => {
      const chat = await ensureLocalChat(tx);
      const ws = chat.workspace.id;
      const source = await tx.conversations.insert(ws, {
        spaceId: chat.space.id,
        platform: 'slack',
        threadId: SOURCE_THREAD,
        title: 'fix the login bug',
        ownerAgentId: null,
        createdByAgentId: null,
      });
      const target = await tx.conversations.insert(ws, {
        spaceId: chat.space.id,
        platform: 'slack',
        threadId: 'slack:C0GENERAL1:1764700000.000009',
        title: 'Draft a design note',
        ownerAgentId: null,
        createdByAgentId: null,
      });
      return { ws, source, target };
    });
    sourceId = made.source.id;
    note = (fields) =>
      store.inWorkspace(made.ws, (tx) =>
        tx.messages.insert(made.ws, {
          conversationId: made.target.id,
          authorKind: 'agent',
          authorAgentId: null,
          authorMemberId: null,
          text: 'Draft a design note for the cache.',
          mentions: { agents: [], members: [] },
          platformMessageRef: null,
          note: {
            senderAgentId: null,
            senderRelay: null,
            sourceConversationId: made.source.id,
            sourceTitle: 'an older title',
            runId: null,
            foldState: 'auto',
            ...fields,
          },
        }),
      );
  });
  afterAll(() => db.dispose());

  const engineer = { name: 'engineer' };

  it('N2, N3: the source conversation’s title and, on its own platform, its thread to link', async () => {
    const made = await note({});
    expect(await noteSourceOf(db.database.store, made, 'slack', engineer)).toEqual({
      title: 'fix the login bug',
      thread: SOURCE_THREAD,
      sender: 'engineer',
    });
  });

  it('N3: shown on another platform, the source is plain text (no thread to link)', async () => {
    const made = await note({});
    expect(await noteSourceOf(db.database.store, made, 'terminal', engineer)).toMatchObject({
      title: 'fix the login bug',
      thread: null,
    });
  });

  it('N3: a source conversation that no longer exists is plain text under the title the note kept', async () => {
    const made = await note({ sourceConversationId: null });
    expect(await noteSourceOf(db.database.store, made, 'slack', engineer)).toEqual({
      title: 'an older title',
      thread: null,
      sender: 'engineer',
    });
    const untitled = await note({ sourceConversationId: null, sourceTitle: '  ' });
    expect((await noteSourceOf(db.database.store, untitled, 'slack', engineer))?.title).toBeNull();
  });

  it('N2, N3: from a paired relay the sender names the relay and nothing of this relay is linked', async () => {
    const made = await note({ senderRelay: 'acme-relay', sourceConversationId: sourceId });
    expect(await noteSourceOf(db.database.store, made, 'slack', { name: 'qa' })).toEqual({
      title: 'an older title',
      thread: null,
      sender: 'qa on acme-relay',
    });
  });

  it('a message that is not a note has no badge', async () => {
    const made = await note({});
    expect(await noteSourceOf(db.database.store, { ...made, note: null }, 'slack', engineer)).toBeNull();
  });
});
