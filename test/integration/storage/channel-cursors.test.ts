import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

describe.each(DATABASE_KINDS)('P11: channel cursors on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.dispose());

  const store = () => db.database.store;
  const list = () => store().transaction((tx) => tx.channelCursors.listSince('discord', new Date(0)));

  it('moves a channel’s cursor forward only, comparing snowflakes as numbers', async () => {
    const advance = (messageId: string) =>
      store().transaction((tx) =>
        tx.channelCursors.advance('discord', { channelId: '300', parentChannelId: null, messageId }),
      );
    await advance('9999999999999999999');
    await advance('10000000000000000000'); // more digits: newer, though smaller as text
    await advance('9999999999999999998'); // a replayed, older message leaves it
    const cursors = await list();
    expect(cursors).toEqual([
      expect.objectContaining({
        channelId: '300',
        parentChannelId: null,
        lastMessageId: '10000000000000000000',
      }),
    ]);
  });

  it('keeps threads apart from their channel, and lists only what moved since a time', async () => {
    const before = new Date(Date.now() - 1000);
    await store().transaction((tx) =>
      tx.channelCursors.advance('discord', { channelId: '301', parentChannelId: '300', messageId: '42' }),
    );
    const recent = await store().transaction((tx) => tx.channelCursors.listSince('discord', before));
    expect(recent.map((c) => [c.channelId, c.parentChannelId])).toEqual(
      expect.arrayContaining([['301', '300']]),
    );
    expect(await store().transaction((tx) => tx.channelCursors.listSince('slack', new Date(0)))).toEqual([]);
    expect(
      await store().transaction((tx) =>
        tx.channelCursors.listSince('discord', new Date(Date.now() + 60_000)),
      ),
    ).toEqual([]);
  });

  it('refuses a cursor that is not a message id', async () => {
    await expect(
      store().transaction((tx) =>
        tx.channelCursors.advance('discord', { channelId: '300', parentChannelId: null, messageId: 'abc' }),
      ),
    ).rejects.toThrow(/numeric message id/);
  });
});
