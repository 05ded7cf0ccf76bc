import { SlackAgentSessions } from '../../../../src/bots/slack/stream/slack-agent-sessions';
import { ServiceUnavailableError } from '../../../../src/core/errors';
import { silentLogger } from '../../../../src/core/ports/logger';

/** A Slack refusal as the outbox hands it back (the WebClient's error as the cause). */
const refused = (code: string) => Object.assign(new Error(code), { cause: { data: { error: code } } });

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('P15: SlackAgentSessions (a thread’s agent session follows its turns)', () => {
  const sent: { thread: string; args: Record<string, unknown> }[] = [];
  let answer: (args: Record<string, unknown>) => Promise<void> = async () => {};
  const sessions = () =>
    new SlackAgentSessions(async (thread, args) => {
      sent.push({ thread, args });
      await answer(args);
    }, silentLogger);
  beforeEach(() => {
    sent.length = 0;
    answer = async () => {};
  });

  it('one turn: processing with its initiator, suspended while it waits, processing, closed; repeats are not sent', async () => {
    const turn = sessions().open('slack:C1:1.1', { initiatorUserId: 'U0MIA00001' });
    turn.working();
    turn.working();
    turn.waiting();
    turn.working();
    await turn.end();
    expect(sent.map((s) => s.args)).toEqual([
      { status: 'processing', initiator_user_id: 'U0MIA00001' },
      { status: 'suspended' },
      { status: 'processing' },
      { status: 'closed' },
    ]);
  });

  it('two turns of one thread: processing while either works, suspended only while both wait, closed after the last', async () => {
    const all = sessions();
    const a = all.open('slack:C1:1.1', { initiatorUserId: null });
    const b = all.open('slack:C1:1.1', { initiatorUserId: null });
    a.working();
    b.working();
    a.waiting();
    b.waiting();
    await a.end();
    await b.end();
    // a ends while b waits: still suspended, nothing to send.
    expect(sent.map((s) => s.args.status)).toEqual(['processing', 'suspended', 'closed']);
    expect(sent[0]?.args).toEqual({ status: 'processing' });
    // Another thread is its own session.
    const c = all.open('slack:C1:2.2', { initiatorUserId: 'U0DANA0001' });
    c.working();
    expect(sent.at(-1)).toEqual({
      thread: 'slack:C1:2.2',
      args: { status: 'processing', initiator_user_id: 'U0DANA0001' },
    });
  });

  it('a refusal costs the turn nothing; one meaning no agent sessions stops every later call', async () => {
    const all = sessions();
    answer = async () => {
      throw refused('channel_not_found');
    };
    const lost = all.open('slack:C1:1.1', { initiatorUserId: null });
    lost.working();
    await settle();
    lost.waiting();
    await expect(lost.end()).resolves.toBeUndefined();
    // That thread's session was left alone after its refusal.
    expect(sent.map((s) => s.args.status)).toEqual(['processing']);

    answer = async () => {
      throw refused('feature_not_enabled');
    };
    const first = all.open('slack:C1:2.2', { initiatorUserId: null });
    first.working();
    await settle();
    await first.end();
    answer = async () => {};
    const later = all.open('slack:C1:3.3', { initiatorUserId: null });
    later.working();
    await later.end();
    expect(sent.map((s) => `${s.thread} ${s.args.status}`)).toEqual([
      'slack:C1:1.1 processing',
      'slack:C1:2.2 processing',
    ]);
  });

  it('T2: a call that could not be made (no Slack refusal: the database away) leaves the session to the next change, sent as usual', async () => {
    const warnings: string[] = [];
    const all = new SlackAgentSessions(
      async (thread, args) => {
        sent.push({ thread, args });
        await answer(args);
      },
      { ...silentLogger, warn: (_fields, message) => warnings.push(message) },
    );
    answer = async () => {
      throw new ServiceUnavailableError(
        'database',
        'The database could not be reached: Connection terminated unexpectedly',
        false,
      );
    };
    const turn = all.open('slack:C1:1.1', { initiatorUserId: null });
    turn.working();
    await settle();
    expect(warnings).toEqual(['an agent session status could not be sent']);
    answer = async () => {};
    turn.waiting();
    turn.working();
    await turn.end();
    expect(sent.map((s) => s.args.status)).toEqual(['processing', 'suspended', 'processing', 'closed']);
  });

  it('close: a session Slack stopped while no turn here runs in it is closed; one with a turn is left to it', async () => {
    const all = sessions();
    await all.close('slack:C1:9.9');
    const turn = all.open('slack:C1:1.1', { initiatorUserId: null });
    turn.working();
    await all.close('slack:C1:1.1');
    expect(sent.map((s) => `${s.thread} ${s.args.status}`)).toEqual([
      'slack:C1:9.9 closed',
      'slack:C1:1.1 processing',
    ]);
  });

  it('P15, T2: settle: a dead worker’s session is set suspended (parked) or closed (ended), unless a turn here runs in it', async () => {
    const all = sessions();
    await all.settle('slack:C1:7.7', 'suspended');
    await all.settle('slack:C1:7.7', 'closed');
    const turn = all.open('slack:C1:1.1', { initiatorUserId: null });
    turn.working();
    await all.settle('slack:C1:1.1', 'closed');
    await turn.end();
    expect(sent.map((s) => `${s.thread} ${JSON.stringify(s.args)}`)).toEqual([
      'slack:C1:7.7 {"status":"suspended"}',
      'slack:C1:7.7 {"status":"closed"}',
      'slack:C1:1.1 {"status":"processing"}',
      'slack:C1:1.1 {"status":"closed"}',
    ]);
    // Once Slack said the app has no agent sessions, nothing more is sent.
    answer = async () => {
      throw refused('feature_not_enabled');
    };
    await all.settle('slack:C1:8.8', 'suspended');
    await all.settle('slack:C1:8.8', 'closed');
    expect(sent.filter((s) => s.thread === 'slack:C1:8.8')).toHaveLength(1);
  });
});
