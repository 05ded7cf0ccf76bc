import { ENGINE_SETUPS, type EngineHarness, openEngineHarness } from '../../support/engine-harness';
import { readableMessage as readable, recordMessages } from '../../support/logged-messages';
import { ScriptedRunner } from '../../support/scripted-runner';

/**
 * T3 (issue 34): a turn's transactions after routing — its claim with its reads (none in a new
 * thread: its routing claimed it), its reply, its finish — are each one message to the
 * database: START TRANSACTION, the statements and the COMMIT together, since what each does
 * after its answer is in memory only (`StoreTx.commitWithNextMessage`).
 */
/** The lane claim's statement (`RunLaneRepository.claimNext`). */
const CLAIM = /UPDATE runs SET status = 'running'/;

const ANSWER_USAGE = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 };

describe.each(ENGINE_SETUPS)('a turn’s transactions, by the messages they send, on $name', (setup) => {
  let h: EngineHarness;
  let messages: string[] = [];

  beforeEach(async () => {
    // O3: the answering call reports its usage, as the model runners do.
    const runner = new ScriptedRunner({}, () => [
      { type: 'usage', model: 'claude-sonnet-4-6', usage: ANSWER_USAGE, costUsd: 0.00006 },
      { type: 'final', text: 'pong' },
    ]);
    // The card waits for a second: an instant turn shows only its reply (P9).
    h = await openEngineHarness(setup, runner, { signOfLifeMs: 1000 });
    recordMessages(h.db.database.dataSource, (query) => void messages.push(readable(query)));
    messages = [];
  });
  afterEach(() => h.close());

  /** The one message that holds `statement`: it starts the transaction and ends it. */
  const transactionOf = (statement: RegExp): string[] => {
    const holding = messages.filter((message) => statement.test(message));
    expect(holding).toHaveLength(1);
    return holding[0]?.split(';\n') ?? [];
  };

  it('T3: a new thread’s run is claimed with its routing, its reads with it; the reply and the finish are one message each', async () => {
    await h.type('@engineer ping');
    const [run] = await h.settled(1);
    expect(run?.status).toBe('succeeded');

    // Stored `running` by the routing, with the turn's reads (its checkpoint among them): no claim.
    expect(messages.filter((message) => CLAIM.test(message))).toEqual([]);
    // The run's INSERT (routing's) and the reads of its turn go in one message.
    const routing = transactionOf(/INSERT INTO "runs"/).join(';\n');
    expect(routing).toMatch(/INSERT INTO "runs".*FROM run_checkpoints/s);

    const reply = transactionOf(/UPDATE "runs" SET "reply_message_id"/);
    expect(reply[0]).toBe('START TRANSACTION');
    expect(reply.at(-1)).toBe('COMMIT');

    const finish = transactionOf(/UPDATE run_steering SET state = 'queued'/);
    expect(finish[0]).toBe('START TRANSACTION');
    expect(finish.join(';\n')).toMatch(/"status" = \$\d+.*RETURNING \*/s);
    expect(finish.at(-1)).toBe('COMMIT');
  });

  it('T3: a reply in the thread claims its run in one message, its reads with the claim', async () => {
    await h.type('@engineer ping');
    await h.settled(1);
    messages = [];
    await h.type('@engineer again');
    const runs = await h.settled(2);
    expect(runs.map((run) => run.status)).toEqual(['succeeded', 'succeeded']);

    const claim = transactionOf(CLAIM);
    expect(claim[0]).toBe('START TRANSACTION');
    // The claim and the turn's reads (its trigger message among them) go with its COMMIT.
    expect(claim.join(';\n')).toMatch(/FROM messages/);
    expect(claim.at(-1)).toBe('COMMIT');
  });

  it('O3, T3: an instant turn in a new thread updates its run twice — reply, finish with the usage', async () => {
    await h.type('@engineer ping');
    const [run] = await h.settled(1);
    expect(run?.status).toBe('succeeded');
    // Every statement that writes a run, across every message of the turn.
    const runUpdates = messages
      .flatMap((message) => message.split(';\n'))
      .filter((statement) => /UPDATE "?runs"? SET/.test(statement));
    expect(runUpdates).toHaveLength(2);
    expect(runUpdates[1]).toMatch(/"status" = .*input_tokens = input_tokens \+/s);
    const [row] = await h.db.database.store.transaction((tx) =>
      tx.query<{ tokens: string; cost: string; usage_model: string }>(
        `SELECT (input_tokens + output_tokens + cache_read_tokens + cache_write_tokens)::text AS tokens,
                cost_usd::text AS cost, usage_model FROM runs WHERE id = $1`,
        [run?.id],
      ),
    );
    expect(row).toMatchObject({ tokens: '19', usage_model: 'claude-sonnet-4-6' });
    expect(Number(row?.cost)).toBeCloseTo(0.00006, 8);
  });
});
