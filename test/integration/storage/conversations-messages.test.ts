import { ConflictError, NotFoundError, ValidationError } from '../../../src/core/errors';
import type { MessageFields } from '../../../src/core/model/conversation-records';
import type { StoreTx } from '../../../src/core/ports/store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields, spaceFields } from './workspace-fixture';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe.each(DATABASE_KINDS)('conversations and messages on %s', (kind) => {
  let db: TestDatabase;
  let ws: string;
  let spaceId: string;
  let alice: string;
  let bob: string;
  let dana: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    ({ ws, spaceId, alice, bob, dana } = await db.database.store.transaction(async (tx) => {
      const workspace = await tx.workspaces.insert({ slug: 'acme', name: 'Acme' });
      return {
        ws: workspace.id,
        spaceId: (await tx.spaces.insert(workspace.id, spaceFields('backend'))).id,
        alice: (await tx.agents.insert(workspace.id, agentFields('alice'))).id,
        bob: (await tx.agents.insert(workspace.id, agentFields('bob'))).id,
        dana: (
          await tx.members.insert(workspace.id, {
            nickname: 'dana',
            role: 'owner',
            slackUserId: null,
            discordUserId: null,
          })
        ).id,
      };
    }));
  });
  afterAll(() => db.dispose());

  const inWs = <T>(work: (tx: StoreTx) => Promise<T>) => db.database.store.inWorkspace(ws, work);

  let threads = 0;
  const newConversation = (overrides: { threadId?: string | null; ownerAgentId?: string | null } = {}) =>
    inWs((tx) =>
      tx.conversations.insert(ws, {
        spaceId,
        platform: 'slack',
        threadId:
          overrides.threadId === undefined ? `slack:C1:17000000${threads++}.0001` : overrides.threadId,
        title: 'Login bug',
        ownerAgentId: overrides.ownerAgentId ?? null,
        createdByAgentId: null,
      }),
    );

  const said = (
    conversationId: string,
    text: string,
    overrides: Partial<MessageFields> = {},
  ): MessageFields => ({
    conversationId,
    authorKind: 'person',
    authorAgentId: null,
    authorMemberId: dana,
    text,
    mentions: { agents: [], members: [] },
    platformMessageRef: null,
    note: null,
    ...overrides,
  });
  const byAgent = (agentId: string): Partial<MessageFields> => ({
    authorKind: 'agent',
    authorAgentId: agentId,
    authorMemberId: null,
  });

  it('stores a conversation per thread, finds it by id and by thread, and sets a late thread id (P2, N4)', async () => {
    const conversation = await newConversation({
      threadId: 'slack:C1:1700000000.000100',
      ownerAgentId: alice,
    });
    expect(conversation).toEqual({
      id: expect.any(String),
      workspaceId: ws,
      spaceId,
      platform: 'slack',
      threadId: 'slack:C1:1700000000.000100',
      title: 'Login bug',
      ownerAgentId: alice,
      createdByAgentId: null,
      createdAt: expect.any(Date),
    });
    expect(await inWs((tx) => tx.conversations.findById(conversation.id))).toEqual(conversation);
    expect(await inWs((tx) => tx.conversations.findByThread('slack', 'slack:C1:1700000000.000100'))).toEqual(
      conversation,
    );
    expect(
      await inWs((tx) => tx.conversations.findByThread('discord', 'slack:C1:1700000000.000100')),
    ).toBeNull();
    expect(await inWs((tx) => tx.conversations.findById('nonsense'))).toBeNull();
    await expect(newConversation({ threadId: 'slack:C1:1700000000.000100' })).rejects.toThrow(
      'This thread already has a conversation.',
    );

    // N4: a conversation an agent created has no thread until it is posted.
    const pending = await inWs((tx) =>
      tx.conversations.insert(ws, {
        spaceId,
        platform: 'slack',
        threadId: null,
        title: 'nightly digest',
        ownerAgentId: bob,
        createdByAgentId: alice,
      }),
    );
    expect(pending.threadId).toBeNull();
    await inWs((tx) => tx.conversations.setThreadId(pending.id, 'slack:C1:1700000000.000900'));
    expect(await inWs((tx) => tx.conversations.findByThread('slack', 'slack:C1:1700000000.000900'))).toEqual({
      ...pending,
      threadId: 'slack:C1:1700000000.000900',
    });
    await expect(
      inWs((tx) => tx.conversations.setThreadId(pending.id, 'slack:C1:1700000000.000100')),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(inWs((tx) => tx.conversations.setThreadId(MISSING, 'x'))).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('T3: a conversation and its first message given their ids and owed go with the commit; a malformed id is refused, a taken one is a conflict and stores neither', async () => {
    const id = '6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e';
    const messageId = '6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5f';
    const fields = {
      spaceId,
      platform: 'slack' as const,
      threadId: 'slack:C1:1800000000.0001',
      title: 'Given id',
      ownerAgentId: null,
      createdByAgentId: null,
    };
    await inWs(async (tx) => {
      await tx.conversations.insertOwed(ws, { ...fields, id });
      await tx.messages.insertOwed(ws, { ...said(id, 'hello'), id: messageId });
    });
    expect(await inWs((tx) => tx.conversations.findById(id))).toMatchObject({ id, title: 'Given id' });
    expect(await inWs((tx) => tx.messages.listRecent(id, 5))).toMatchObject([
      { id: messageId, text: 'hello' },
    ]);
    await expect(
      inWs((tx) =>
        tx.conversations.insertOwed(ws, { ...fields, threadId: 'slack:C1:1800000000.0002', id: "x'; --" }),
      ),
    ).rejects.toThrow(ValidationError);
    await expect(inWs((tx) => tx.messages.insertOwed(ws, { ...said(id, 'x'), id: 'nope' }))).rejects.toThrow(
      ValidationError,
    );
    // The same conversation id again, and a message in it: the commit fails, neither stays.
    const again = inWs(async (tx) => {
      await tx.conversations.insertOwed(ws, { ...fields, threadId: 'slack:C1:1800000000.0003', id });
      await tx.messages.insertOwed(ws, { ...said(id, 'second'), id: '6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d60' });
    });
    await expect(again).rejects.toThrow(ConflictError);
    expect((await inWs((tx) => tx.messages.listRecent(id, 5))).map((m) => m.text)).toEqual(['hello']);
  });

  it('stores a message with its mentions and hands back exactly the fields it was given (M11)', async () => {
    const conversation = await newConversation();
    const fields = said(conversation.id, '@alice ask @dana', {
      mentions: {
        agents: [{ agentId: alice, name: 'alice' }],
        members: [{ memberId: dana, nickname: 'dana' }],
      },
      platformMessageRef: '1700000001.000100',
    });
    const stored = await inWs((tx) => tx.messages.insert(ws, fields));
    const { conversationId, ...rest } = fields;
    expect(stored).toEqual({
      ...rest,
      conversationId,
      id: expect.any(String),
      workspaceId: ws,
      createdAt: expect.any(Date),
    });
    expect(await inWs((tx) => tx.messages.findById(stored.id))).toEqual(stored);
    expect(await inWs((tx) => tx.messages.findById('nonsense'))).toBeNull();

    // Whatever else a caller's objects carry stays out of the row.
    const sneaky = {
      ...said(conversation.id, 'hi'),
      workspaceId: MISSING,
      mentions: { agents: [{ agentId: alice, name: 'alice', extra: 1 }], members: [], more: true },
    } as unknown as MessageFields;
    const clean = await inWs((tx) => tx.messages.insert(ws, sneaky));
    expect(clean.workspaceId).toBe(ws);
    expect(clean.mentions).toEqual({ agents: [{ agentId: alice, name: 'alice' }], members: [] });
  });

  it('reads mentions stored in another shape as what it can recognise, never a malformed record', async () => {
    const conversation = await newConversation();
    const id = await db.database.store.transaction(async (tx) => {
      const [row] = await tx.query<{ id: string }>(
        `INSERT INTO messages (workspace_id, conversation_id, author_kind, text, mentions)
         VALUES ($1, $2, 'system', 'legacy', '[{"kind": "agent"}]') RETURNING id`,
        [ws, conversation.id],
      );
      const [defaulted] = await tx.query<{ mentions: unknown }>(
        `INSERT INTO messages (workspace_id, conversation_id, author_kind, text)
         VALUES ($1, $2, 'system', 'defaulted') RETURNING mentions`,
        [ws, conversation.id],
      );
      expect(defaulted?.mentions).toEqual({ agents: [], members: [] });
      return row?.id ?? '';
    });
    expect((await inWs((tx) => tx.messages.findById(id)))?.mentions).toEqual({ agents: [], members: [] });
  });

  it('stores a note with its fields; any other message has no note (N1–N9)', async () => {
    const source = await newConversation();
    const target = await newConversation();
    const note = {
      senderAgentId: alice,
      senderRelay: null,
      sourceConversationId: source.id,
      sourceTitle: 'report builder',
      runId: null,
      foldState: 'auto' as const,
    };
    const stored = await inWs((tx) =>
      tx.messages.insert(ws, said(target.id, 'Summarise the build.', { ...byAgent(alice), note })),
    );
    expect(stored.note).toEqual(note);
    expect((await inWs((tx) => tx.messages.findById(stored.id)))?.note).toEqual(note);
    const plain = await inWs((tx) => tx.messages.insert(ws, said(target.id, 'thanks')));
    expect(plain.note).toBeNull();

    const [flags] = await db.database.store.transaction((tx) =>
      tx.query<{ note: boolean; plain: boolean }>(
        'SELECT (SELECT is_note FROM messages WHERE id = $1) AS note, (SELECT is_note FROM messages WHERE id = $2) AS plain',
        [stored.id, plain.id],
      ),
    );
    expect(flags).toEqual({ note: true, plain: false });
    // N3: the badge links to its source only while that conversation exists.
    await db.database.store.transaction((tx) =>
      tx.query('DELETE FROM conversations WHERE id = $1', [source.id]),
    );
    expect((await inWs((tx) => tx.messages.findById(stored.id)))?.note).toEqual({
      ...note,
      sourceConversationId: null,
    });
  });

  it('folds and opens only notes, links a note to its run, and finds the note of a run (N9, N10)', async () => {
    const conversation = await newConversation();
    const note = await inWs((tx) =>
      tx.messages.insert(
        ws,
        said(conversation.id, 'Check the deploy.', {
          ...byAgent(bob),
          note: {
            senderAgentId: bob,
            senderRelay: 'build-box',
            sourceConversationId: null,
            sourceTitle: null,
            runId: null,
            foldState: 'auto',
          },
        }),
      ),
    );
    const plain = await inWs((tx) => tx.messages.insert(ws, said(conversation.id, 'hello')));
    const run = await inWs((tx) =>
      tx.runs.insert({
        workspaceId: ws,
        agentId: alice,
        conversationId: conversation.id,
        triggerMessageId: note.id,
        status: 'queued',
        liveness: 'ok',
        wakeChain: [bob],
        depth: 2,
        startedByMemberId: null,
        startedByAgentId: bob,
        startedAt: null,
        finishedAt: null,
        lastEventAt: null,
        error: null,
      }),
    );
    expect(await inWs((tx) => tx.messages.findNoteOfRun(run.id))).toBeNull();
    await inWs((tx) => tx.messages.linkNoteRun(note.id, run.id));
    await inWs((tx) => tx.messages.setNoteFoldState(note.id, 'folded'));
    const found = await inWs((tx) => tx.messages.findNoteOfRun(run.id));
    expect(found?.id).toBe(note.id);
    expect(found?.note).toMatchObject({ runId: run.id, foldState: 'folded', senderRelay: 'build-box' });

    await expect(inWs((tx) => tx.messages.setNoteFoldState(plain.id, 'open'))).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(inWs((tx) => tx.messages.linkNoteRun(plain.id, run.id))).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(inWs((tx) => tx.messages.setNoteFoldState(MISSING, 'open'))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(inWs((tx) => tx.messages.linkNoteRun(note.id, MISSING))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(
      inWs((tx) => tx.messages.setNoteFoldState(note.id, 'sideways' as never)),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await inWs((tx) => tx.messages.findNoteOfRun('nonsense'))).toBeNull();
  });

  it('lists the newest messages oldest first, in write order even within one transaction', async () => {
    const conversation = await newConversation();
    await inWs(async (tx) => {
      for (const n of [1, 2, 3, 4, 5]) await tx.messages.insert(ws, said(conversation.id, `m${n}`));
    });
    const texts = async (limit: number) =>
      (await inWs((tx) => tx.messages.listRecent(conversation.id, limit))).map((m) => m.text);
    expect(await texts(3)).toEqual(['m3', 'm4', 'm5']);
    expect(await texts(50)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(await texts(0)).toEqual([]);
    expect(await inWs((tx) => tx.messages.listRecent('nonsense', 3))).toEqual([]);
  });

  it('stores a posted message’s platform ref, and refuses one for a message that does not exist (P7)', async () => {
    const [one, two] = [await newConversation(), await newConversation()];
    const first = await inWs((tx) => tx.messages.insert(ws, said(one.id, 'first')));
    await inWs((tx) => tx.messages.setPlatformRef(first.id, '1700000002.000100'));
    expect((await inWs((tx) => tx.messages.findById(first.id)))?.platformMessageRef).toBe(
      '1700000002.000100',
    );
    // Another thread is another conversation; and messages not posted yet have no ref at all.
    const elsewhere = await inWs((tx) =>
      tx.messages.insert(ws, said(two.id, 'elsewhere', { platformMessageRef: '1700000002.000100' })),
    );
    expect(elsewhere.platformMessageRef).toBe('1700000002.000100');
    await expect(inWs((tx) => tx.messages.setPlatformRef(MISSING, 'x'))).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('names the agent that replied last, never a note’s sender or a person (M3)', async () => {
    const conversation = await newConversation();
    const last = () => inWs((tx) => tx.messages.lastAgentAuthorId(conversation.id));
    expect(await last()).toBeNull();
    await inWs((tx) => tx.messages.insert(ws, said(conversation.id, '@alice hi')));
    expect(await last()).toBeNull();
    await inWs(async (tx) => {
      await tx.messages.insert(ws, said(conversation.id, 'alice here', byAgent(alice)));
      await tx.messages.insert(ws, said(conversation.id, 'bob here', byAgent(bob)));
      await tx.messages.insert(ws, said(conversation.id, 'alice again', byAgent(alice)));
    });
    expect(await last()).toBe(alice);
    // A note bob sent into this conversation is a prompt, not a reply; people and the system do not count.
    await inWs(async (tx) => {
      await tx.messages.insert(
        ws,
        said(conversation.id, 'from bob', {
          ...byAgent(bob),
          note: {
            senderAgentId: bob,
            senderRelay: null,
            sourceConversationId: null,
            sourceTitle: null,
            runId: null,
            foldState: 'auto',
          },
        }),
      );
      await tx.messages.insert(ws, said(conversation.id, 'ok'));
      await tx.messages.insert(
        ws,
        said(conversation.id, 'wake refused', { authorKind: 'system', authorMemberId: null }),
      );
    });
    expect(await last()).toBe(alice);
    await inWs((tx) => tx.messages.insert(ws, said(conversation.id, 'bob replies', byAgent(bob))));
    expect(await last()).toBe(bob);
    expect(await inWs((tx) => tx.messages.lastAgentAuthorId('nonsense'))).toBeNull();
  });
});
