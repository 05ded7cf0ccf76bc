import { StoreChatDirectory } from '../../../src/core/directory/store-chat-directory';
import { withDirectInbox } from '../../../src/core/ingest/direct-inbox';
import type { InboxEntry, InboxRecord } from '../../../src/core/model/inbox';
import type { ChatDirectory } from '../../../src/core/ports/chat-directory';
import type { InboundMessage } from '../../../src/core/ports/chat-platform';
import type { InboxDecision, InboxDecoder } from '../../../src/core/ports/inbox-decoder';
import { ensureLocalChat } from '../../../src/core/workspace/local-chat';
import { RecordingChatEngine } from '../../support/platform-contract';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

const TEAM = 'T0ACME0001';
const CHANNEL = 'C0GENERAL1';

/** A front end's reading of its rows, as small as it gets: the row's payload is the message, and a DM says so. */
class DirectDecoder implements InboxDecoder {
  readonly directories: ChatDirectory[] = [];

  async decode(record: InboxRecord, directory: ChatDirectory): Promise<InboxDecision> {
    this.directories.push(directory);
    const { message, teamId } = record.payload as { message: InboundMessage; teamId: string };
    return {
      kind: 'route',
      message,
      direct: { platform: 'slack', teamId, channelId: message.channelId, userId: message.senderId },
    };
  }
}

function directMessage(eventId: string, channelId: string, senderId: string, teamId = TEAM): InboxEntry {
  const message: InboundMessage = {
    platform: 'slack',
    workspace: { platform: 'slack', externalId: teamId },
    eventId,
    thread: `${channelId}:${eventId}`,
    channelId,
    topLevel: false,
    senderId,
    text: 'what is on today?',
    messageRef: eventId,
    receivedAt: new Date(),
  };
  return {
    platform: 'slack',
    eventId,
    threadKey: message.thread,
    channelKey: null,
    payload: { message, teamId },
    receivedAt: new Date(),
  };
}

describe('P1, P18: a direct message a front end names is given its one-person space by the core', () => {
  let db: TestDatabase;
  let workspaceId: string;
  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    workspaceId = await db.database.store.transaction(async (tx) => {
      const chat = await ensureLocalChat(tx);
      await tx.platformBindings.bind(chat.workspace.id, 'slack', TEAM);
      await tx.channelBindings.bind(chat.space.id, 'slack', CHANNEL);
      await tx.members.insert(chat.workspace.id, {
        nickname: 'dana',
        role: 'member',
        slackUserId: 'U0DANA0001',
        discordUserId: null,
      });
      return chat.workspace.id;
    });
  });
  afterAll(() => db.dispose());

  it('a member’s first direct message makes the dedicated space with the top-level agent; the next one is routed in it', async () => {
    const store = db.database.store;
    const recording = new RecordingChatEngine();
    const told: string[] = [];
    const engine = withDirectInbox(recording, {
      store,
      tell: async (_m, sentence) => void told.push(sentence),
    });
    engine.routeInboxWith('slack', new DirectDecoder());
    expect(await engine.ingest(directMessage('D1:1', 'D0DANA0001', 'U0DANA0001'))).toEqual({ stored: true });
    expect(await engine.ingest(directMessage('D1:2', 'D0DANA0001', 'U0DANA0001'))).toEqual({ stored: true });
    expect(recording.received.map((m) => m.eventId)).toEqual(['D1:1', 'D1:2']);
    expect(told).toEqual([]);
    const binding = await store.transaction((tx) => tx.channelBindings.find('slack', 'D0DANA0001'));
    const space = await store.transaction((tx) => tx.spaces.findByName(workspaceId, 'dm-dana'));
    expect(space).toMatchObject({ dedicated: true, mode: 'chat' });
    expect(binding?.spaceId).toBe(space?.id);
    const participants = await store.transaction((tx) => tx.spaces.listParticipants(space?.id ?? ''));
    const top = (await store.transaction((tx) => tx.agents.list(workspaceId))).find(
      (a) => a.reportsToId === null,
    );
    expect(participants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'agent', agentId: top?.id }),
        expect.objectContaining({ kind: 'member' }),
      ]),
    );
    expect(participants).toHaveLength(2);
  });

  it('a stranger, or a team no workspace owns, is told why; nothing is received and no space is made', async () => {
    const store = db.database.store;
    const recording = new RecordingChatEngine();
    const told: { thread: string; sentence: string }[] = [];
    const engine = withDirectInbox(recording, {
      store,
      tell: async (message, sentence) => void told.push({ thread: message.thread, sentence }),
    });
    engine.routeInboxWith('slack', new DirectDecoder());
    await engine.ingest(directMessage('D2:1', 'D0STRANGE1', 'U0STRANGE1'));
    await engine.ingest(directMessage('D3:1', 'D0ELSEWHR1', 'U0DANA0001', 'T0NOBODY01'));
    expect(recording.received).toEqual([]);
    expect(told).toEqual([
      { thread: 'D0STRANGE1:D2:1', sentence: expect.stringContaining('/summon link-account') },
      { thread: 'D0ELSEWHR1:D3:1', sentence: expect.stringContaining('not linked to a Summon workspace') },
    ]);
    for (const channel of ['D0STRANGE1', 'D0ELSEWHR1'])
      expect(await store.transaction((tx) => tx.channelBindings.find('slack', channel))).toBeNull();
  });
});

describe('P18: the front ends’ ChatDirectory over the store', () => {
  let db: TestDatabase;
  let workspaceId: string;
  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    workspaceId = await db.database.store.transaction(async (tx) => {
      const chat = await ensureLocalChat(tx);
      await tx.platformBindings.bind(chat.workspace.id, 'discord', 'G0ACME');
      await tx.channelBindings.bind(chat.space.id, 'discord', 'C0BOUND');
      await tx.members.insert(chat.workspace.id, {
        nickname: 'dana',
        role: 'member',
        slackUserId: 'U0DANA',
        discordUserId: '100200300',
      });
      return chat.workspace.id;
    });
  });
  afterAll(() => db.dispose());

  it('reads bindings, members and agents in the platform’s terms', async () => {
    const directory = new StoreChatDirectory(db.database.store);
    expect(await directory.workspaceOfTeam('discord', 'G0ACME')).toBe(workspaceId);
    expect(await directory.workspaceOfTeam('discord', 'G0OTHER')).toBeNull();
    expect(await directory.isBoundChannel('discord', 'C0BOUND')).toBe(true);
    expect(await directory.isBoundChannel('discord', 'C0BOUND', 'G0ACME')).toBe(true);
    // P1: a channel bound in one workspace is not bound for a guild of another.
    expect(await directory.isBoundChannel('discord', 'C0BOUND', 'G0OTHER')).toBe(false);
    expect(await directory.isBoundChannel('slack', 'C0BOUND')).toBe(false);
    const members = await directory.membersOfTeam('discord', 'G0ACME', { nicknames: ['Dana', 'you'] });
    expect(members).toContainEqual({ nickname: 'dana', userId: '100200300' });
    // The local member linked no Discord account.
    expect(members).toContainEqual({ nickname: 'you', userId: null });
    // M11, P8: by account, only those named.
    expect(await directory.membersOfTeam('discord', 'G0ACME', { accounts: ['100200300', '999'] })).toEqual([
      { nickname: 'dana', userId: '100200300' },
    ]);
    // P7: an unbound channel is owned by the team's workspace, with nobody to mention.
    expect(await directory.channelOwner('discord', 'C0UNBOUND', 'G0ACME')).toEqual({
      workspaceId,
      members: [],
    });
    expect(await directory.channelOwner('discord', 'C0UNBOUND', null)).toBeNull();
    expect(await directory.teamOfDirectMessage('discord', 'D0NEW', '100200300', ['G0OTHER', 'G0ACME'])).toBe(
      'G0ACME',
    );
    expect(await directory.teamOfDirectMessage('discord', 'D0NEW', '999', ['G0ACME'])).toBeNull();
    const agents = await directory.agentsOfChannel('discord', 'G0ACME', 'C0BOUND');
    expect(agents.length).toBeGreaterThan(0);
    expect(await directory.agentsOfChannel('discord', 'G0OTHER', 'C0BOUND')).toEqual([]);
  });

  it('P11: moves and lists the back-fill cursors', async () => {
    const directory = new StoreChatDirectory(db.database.store);
    const before = new Date(Date.now() - 60_000);
    await directory.advanceCursor('discord', {
      channelId: 'C0BOUND',
      parentChannelId: null,
      messageId: '200',
    });
    await directory.advanceCursor('discord', {
      channelId: 'C0BOUND',
      parentChannelId: null,
      messageId: '100',
    });
    const cursors = await directory.cursorsSince('discord', before);
    expect(cursors).toEqual([expect.objectContaining({ channelId: 'C0BOUND', lastMessageId: '200' })]);
    expect(await directory.cursorsSince('slack', before)).toEqual([]);
  });
});
