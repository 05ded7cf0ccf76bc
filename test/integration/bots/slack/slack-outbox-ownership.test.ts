import { encodeSlackThreadId } from '../../../../src/bots/slack/slack-thread-id';
import { waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../../support/slack-harness';

const UNBOUND = 'C0UNBOUND01';

describe('P7: a call into a channel not bound to a space is stored under its team’s workspace', () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await openSlackHarness({ runner: new ScriptedRunner({}) });
  });
  afterEach(() => h.close());

  const outboxRows = () =>
    h.store.transaction((tx) =>
      (tx as unknown as { query: <R>(sql: string) => Promise<R[]> }).query<{
        workspace_id: string;
        lane: string;
        status: string;
      }>('SELECT workspace_id, lane, status FROM outbox ORDER BY seq'),
    );
  const fromUnbound = async (eventId: string) => {
    const ts = h.standIn.addPersonMessage(UNBOUND, null);
    const response = await h.deliver(
      eventFrom('message-channel', { ts, channel: UNBOUND, text: '@engineer hello' }, eventId),
    );
    return { ts, status: response.status };
  };

  it('P1: the answer in a channel not bound to a space is stored under the team’s workspace (retried from its row, resumed after a restart like every call)', async () => {
    h.standIn.failNext('chat.postMessage', { status: 503 }, 1);
    const { ts, status } = await fromUnbound('Ev0UNBOUND01');
    expect(status).toBe(200);
    await waitFor(async () =>
      h.standIn.inThread(UNBOUND, ts).some((m) => m.text.includes('not linked to a space')),
    );
    // The row is marked sent just after Slack answers: wait for it rather than race it.
    await waitFor(async () => (await outboxRows()).every((row) => row.status === 'sent'));
    expect(await outboxRows()).toEqual([
      {
        workspace_id: h.local.workspace.id,
        lane: encodeSlackThreadId({ channel: UNBOUND, threadTs: ts }),
        status: 'sent',
      },
    ]);
  });

  it('a team linked to no workspace: its refusal still reaches the thread, but there is no workspace to store it under', async () => {
    await h.store.transaction((tx) =>
      (tx as unknown as { query: (sql: string) => Promise<unknown> }).query('DELETE FROM platform_bindings'),
    );
    const { ts, status } = await fromUnbound('Ev0UNBOUND02');
    expect(status).toBe(200);
    await waitFor(async () =>
      h.standIn.inThread(UNBOUND, ts).some((m) => m.text.includes('not linked to a Summon workspace')),
    );
    expect(await outboxRows()).toEqual([]);
  });
});
