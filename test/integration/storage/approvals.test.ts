import { NotFoundError, ValidationError } from '../../../src/core/errors';
import type { ApprovalRecord } from '../../../src/core/model/approvals/approval-record';
import type { ApprovalStatus } from '../../../src/core/model/guardrail';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

const MISSING = '00000000-0000-4000-8000-000000000000';
const at = (minute: number, ms = 0) => new Date(Date.UTC(2026, 0, 1, 12, minute, 0, ms));

const DETAILS = {
  summary: 'Push to acme/api main',
  lines: ['acme/api', 'main: 1a2b3c4 → 5d6e7f8', '5d6e7f8 Fix the login bug'],
};

describe.each(DATABASE_KINDS)('approvals (G4) on %s', (kind) => {
  let db: TestDatabase;
  let seeded: SeededWorkspace;
  let ws: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    seeded = await seedWorkspace(db.database.store, 'acme');
    ws = seeded.workspaceId;
  });
  afterAll(() => db.dispose());

  const inWs = <T>(work: (tx: SqlStoreTx) => Promise<T>) => db.database.store.inWorkspace(ws, work);
  const system = <T>(work: (tx: SqlStoreTx) => Promise<T>) => db.database.store.transaction(work);

  /** A pending approval of the seeded run, requested at `minute`, due `dueAfter` minutes later. */
  const ask = (minute: number, dueAfter = 30, runId = seeded.runId) =>
    inWs((tx) =>
      tx.approvals.insert(ws, {
        runId,
        action: 'push_to_remote',
        details: DETAILS,
        requestedAt: at(minute),
        expiresAt: at(minute + dueAfter),
      }),
    );

  /** Settles every approval still pending, so that each test lists only its own. */
  const settleAllPending = () =>
    system((tx) => tx.query(`UPDATE approvals SET status = 'expired' WHERE status = 'pending' RETURNING id`));

  it('stores a pending approval with its card details and finds it by id', async () => {
    const approval = await ask(0);
    expect(approval).toEqual({
      id: expect.any(String),
      workspaceId: ws,
      runId: seeded.runId,
      action: 'push_to_remote',
      details: DETAILS,
      status: 'pending',
      decidedByMemberId: null,
      requestedAt: at(0),
      decidedAt: null,
      expiresAt: at(30),
      platformCardRef: null,
      subjectHash: null,
      conversationGrant: false,
      routineProposal: null,
    } satisfies ApprovalRecord);
    expect(await inWs((tx) => tx.approvals.findById(approval.id))).toEqual(approval);
    expect(await system((tx) => tx.approvals.findById(approval.id))).toEqual(approval);
    expect(await inWs((tx) => tx.approvals.findById(MISSING))).toBeNull();
    expect(await inWs((tx) => tx.approvals.findById('not-a-uuid'))).toBeNull();
  });

  it('stores only the card’s fields and reads details it does not recognise as an empty card', async () => {
    const extra = { ...DETAILS, secret: 'token', lines: [...DETAILS.lines] };
    const approval = await inWs((tx) =>
      tx.approvals.insert(ws, {
        runId: seeded.runId,
        action: 'commit',
        details: extra,
        requestedAt: at(0),
        expiresAt: at(30),
      }),
    );
    const [stored] = await system((tx) =>
      tx.query<{ details: unknown }>('SELECT details FROM approvals WHERE id = $1', [approval.id]),
    );
    expect(stored?.details).toEqual(DETAILS);

    // Rows written by hand or by an older shape: the column's default `{}`, and worse.
    const legacy = await system(async (tx) => {
      const found: (ApprovalRecord | null)[] = [];
      for (const details of [
        '{}',
        '{"branch": "main"}',
        '{"summary": 7, "lines": ["a", 2, null, "b"]}',
        '[]',
      ]) {
        const [row] = await tx.query<{ id: string }>(
          `INSERT INTO approvals (workspace_id, run_id, action, details, expires_at)
           VALUES ($1, $2, 'network', $3::jsonb, now()) RETURNING id`,
          [ws, seeded.runId, details],
        );
        found.push(await tx.approvals.findById(row?.id ?? ''));
      }
      return found;
    });
    expect(legacy.map((a) => a?.details)).toEqual([
      { summary: '', lines: [] },
      { summary: '', lines: [] },
      { summary: '', lines: ['a', 'b'] },
      { summary: '', lines: [] },
    ]);
    await settleAllPending();
  });

  it('E4: an MCP call’s approval keeps its hash and its code block; only such an approval can be granted for the conversation', async () => {
    const mcp = await inWs((tx) =>
      tx.approvals.insert(ws, {
        runId: seeded.runId,
        action: 'mcp',
        details: {
          summary: 'engineer wants to call linear__create_issue',
          lines: ['server: linear'],
          code: '{}',
        },
        requestedAt: at(0),
        expiresAt: at(30),
        subjectHash: 'a'.repeat(64),
      }),
    );
    expect(mcp).toMatchObject({
      subjectHash: 'a'.repeat(64),
      conversationGrant: false,
      details: { code: '{}' },
    });
    await inWs((tx) => tx.approvals.markConversationGrant(mcp.id));
    expect(await inWs((tx) => tx.approvals.findById(mcp.id))).toMatchObject({ conversationGrant: true });
    const push = await ask(1);
    await expect(inWs((tx) => tx.approvals.markConversationGrant(push.id))).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(inWs((tx) => tx.approvals.markConversationGrant(MISSING))).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('E4: one grant per conversation and call: granting again keeps the first; another call is not granted', async () => {
    const grant = (hash: string, by: string | null) =>
      inWs((tx) =>
        tx.mcpGrants.grant(ws, {
          conversationId: seeded.conversationId,
          subjectHash: hash,
          approvalId: null,
          grantedByMemberId: by,
          grantedAt: at(2),
        }),
      );
    const first = await grant('b'.repeat(64), seeded.memberId);
    expect(first).toMatchObject({
      conversationId: seeded.conversationId,
      grantedByMemberId: seeded.memberId,
    });
    expect((await grant('b'.repeat(64), null)).id).toBe(first.id);
    expect(await inWs((tx) => tx.mcpGrants.find(seeded.conversationId, 'b'.repeat(64)))).toEqual(first);
    expect(await inWs((tx) => tx.mcpGrants.find(seeded.conversationId, 'c'.repeat(64)))).toBeNull();
    expect(await inWs((tx) => tx.mcpGrants.find('not-a-uuid', 'b'.repeat(64)))).toBeNull();
    await expect(
      inWs((tx) =>
        tx.mcpGrants.grant(ws, {
          conversationId: MISSING,
          subjectHash: 'd'.repeat(64),
          approvalId: null,
          grantedByMemberId: null,
          grantedAt: at(2),
        }),
      ),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses an approval for a run that does not exist', async () => {
    for (const runId of [MISSING, 'not-a-uuid']) {
      await expect(ask(0, 30, runId)).rejects.toBeInstanceOf(NotFoundError);
    }
  });

  it('records a decision once: deciding again returns null and the first decision stands', async () => {
    const approval = await ask(0);
    const decided = await inWs((tx) =>
      tx.approvals.decide(approval.id, {
        status: 'approved',
        decidedByMemberId: seeded.memberId,
        decidedAt: at(5),
      }),
    );
    expect(decided).toEqual({
      ...approval,
      status: 'approved',
      decidedByMemberId: seeded.memberId,
      decidedAt: at(5),
    });
    for (const status of ['denied', 'approved', 'expired'] as const) {
      const again = await inWs((tx) =>
        tx.approvals.decide(approval.id, { status, decidedByMemberId: null, decidedAt: at(6) }),
      );
      expect(again).toBeNull();
    }
    expect(await inWs((tx) => tx.approvals.findById(approval.id))).toEqual(decided);
  });

  it('records denials and expiries (no decider), in the system context too', async () => {
    const denied = await ask(0);
    const expired = await ask(1);
    expect(
      await inWs((tx) =>
        tx.approvals.decide(denied.id, {
          status: 'denied',
          decidedByMemberId: seeded.memberId,
          decidedAt: at(2),
        }),
      ),
    ).toMatchObject({ status: 'denied', decidedByMemberId: seeded.memberId, decidedAt: at(2) });
    // G4: the expiry sweep decides in the system context, with nobody as the decider.
    expect(
      await system((tx) =>
        tx.approvals.decide(expired.id, { status: 'expired', decidedByMemberId: null, decidedAt: at(31) }),
      ),
    ).toMatchObject({ status: 'expired', decidedByMemberId: null, decidedAt: at(31) });
  });

  it('decides nothing that does not exist, and refuses a decider who is not a member', async () => {
    const decision = { status: 'denied', decidedByMemberId: null, decidedAt: at(1) } as const;
    expect(await inWs((tx) => tx.approvals.decide(MISSING, decision))).toBeNull();
    expect(await inWs((tx) => tx.approvals.decide('not-a-uuid', decision))).toBeNull();
    const approval = await ask(0);
    for (const decidedByMemberId of [MISSING, 'not-a-uuid']) {
      await expect(
        inWs((tx) => tx.approvals.decide(approval.id, { ...decision, decidedByMemberId })),
      ).rejects.toBeInstanceOf(NotFoundError);
    }
    await expect(
      inWs((tx) =>
        tx.approvals.decide(approval.id, {
          ...decision,
          status: 'pending' as unknown as Exclude<ApprovalStatus, 'pending'>,
        }),
      ),
    ).rejects.toBeInstanceOf(ValidationError);
    expect((await inWs((tx) => tx.approvals.findById(approval.id)))?.status).toBe('pending');
    await settleAllPending();
  });

  it('a decision rolled back with its transaction leaves the approval pending', async () => {
    const approval = await ask(0);
    const failure = new Error('the card could not be updated');
    await expect(
      inWs(async (tx) => {
        await tx.approvals.decide(approval.id, {
          status: 'approved',
          decidedByMemberId: seeded.memberId,
          decidedAt: at(1),
        });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await inWs((tx) => tx.approvals.findById(approval.id))).toEqual(approval);
    await settleAllPending();
  });

  it('remembers the card’s platform ref (P5), and refuses one for an approval that does not exist', async () => {
    const approval = await ask(0);
    await inWs((tx) => tx.approvals.setCardRef(approval.id, '1700000000.000900'));
    expect(await inWs((tx) => tx.approvals.findById(approval.id))).toEqual({
      ...approval,
      platformCardRef: '1700000000.000900',
    });
    // A decided approval keeps its card, so that the card can show the decision.
    await inWs((tx) =>
      tx.approvals.decide(approval.id, { status: 'denied', decidedByMemberId: null, decidedAt: at(1) }),
    );
    await inWs((tx) => tx.approvals.setCardRef(approval.id, '1700000000.000901'));
    expect((await inWs((tx) => tx.approvals.findById(approval.id)))?.platformCardRef).toBe(
      '1700000000.000901',
    );
    for (const id of [MISSING, 'not-a-uuid']) {
      await expect(inWs((tx) => tx.approvals.setCardRef(id, 'x'))).rejects.toBeInstanceOf(NotFoundError);
    }
  });

  it('lists the pending approvals due at a moment: due exactly at the deadline, oldest request first', async () => {
    await settleAllPending();
    const later = await ask(10, 5); // due at 12:15
    const first = await ask(0, 15); // due at 12:15
    const notYet = await ask(1, 20); // due at 12:21
    const decided = await ask(2, 1); // due at 12:03, but decided
    await inWs((tx) =>
      tx.approvals.decide(decided.id, { status: 'approved', decidedByMemberId: null, decidedAt: at(2, 500) }),
    );
    const due = (now: Date) => inWs(async (tx) => (await tx.approvals.listPendingDue(now)).map((a) => a.id));
    expect(await due(at(14, 999))).toEqual([]);
    expect(await due(at(15))).toEqual([first.id, later.id]);
    expect(await due(at(20, 999))).toEqual([first.id, later.id]);
    expect(await due(at(21))).toEqual([first.id, notYet.id, later.id]);
    // The sweep runs in the system context, over every workspace.
    expect((await system((tx) => tx.approvals.listPendingDue(at(21)))).map((a) => a.id)).toEqual([
      first.id,
      notYet.id,
      later.id,
    ]);
    const [listed] = await inWs((tx) => tx.approvals.listPendingDue(at(15)));
    expect(listed).toEqual(first);
    // Once expired, an approval is no longer due.
    await system((tx) =>
      tx.approvals.decide(first.id, { status: 'expired', decidedByMemberId: null, decidedAt: at(15) }),
    );
    expect(await due(at(21))).toEqual([notYet.id, later.id]);
    await settleAllPending();
  });

  it('keeps a decision when its decider leaves, and goes with its run', async () => {
    const approval = await ask(0);
    const decider = await system((tx) =>
      tx.members.insert(ws, { nickname: 'rex', role: 'approver', slackUserId: null, discordUserId: null }),
    );
    await inWs((tx) =>
      tx.approvals.decide(approval.id, {
        status: 'approved',
        decidedByMemberId: decider.id,
        decidedAt: at(1),
      }),
    );
    await system((tx) => tx.query('DELETE FROM members WHERE id = $1', [decider.id]));
    expect(await inWs((tx) => tx.approvals.findById(approval.id))).toMatchObject({
      status: 'approved',
      decidedByMemberId: null,
      decidedAt: at(1),
    });

    // Deleting the agent takes its run, and with it the run's approvals, decided or not.
    const other = await seedWorkspace(db.database.store, 'agent-goes');
    await system((tx) => tx.query('DELETE FROM agents WHERE id = $1', [other.agentId]));
    expect(await system((tx) => tx.approvals.findById(other.approvalId))).toBeNull();
  });
});

/** Resolves once `count` parties have arrived; each waits for all the others. */
const barrier = (count: number) => {
  let arrived = 0;
  let release = () => {};
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  return () => {
    arrived += 1;
    if (arrived === count) release();
    return open;
  };
};

const withinMs = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

/**
 * Only PostgreSQL has concurrent transactions: PGlite runs the store's transactions one after
 * another, so there two decisions are never in flight together (covered above on both engines).
 */
describe('deciding one approval from concurrent transactions on postgres', () => {
  let db: TestDatabase;
  let seeded: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
    seeded = await seedWorkspace(db.database.store, 'acme');
  });
  afterAll(() => db.dispose());

  it('lets exactly one of ten simultaneous clicks decide, and its decision stands (G4)', async () => {
    const store = db.database.store;
    const ws = seeded.workspaceId;
    const clicks = 10; // the pool's default size: every transaction holds a connection at once
    // Half in the workspace's session, half in the system context (the expiry sweep).
    const open =
      (n: number) =>
      <T>(work: (tx: SqlStoreTx) => Promise<T>) =>
        n % 2 === 0 ? store.inWorkspace(ws, work) : store.transaction(work);
    for (let round = 0; round < 3; round++) {
      const approval = await store.inWorkspace(ws, (tx) =>
        tx.approvals.insert(ws, {
          runId: seeded.runId,
          action: 'push_to_remote',
          details: DETAILS,
          requestedAt: at(round),
          expiresAt: at(round + 30),
        }),
      );
      // Every transaction has read the approval as pending before any of them decides.
      const allOpen = barrier(clicks);
      const results = await withinMs(
        Promise.all(
          Array.from({ length: clicks }, (_, n) =>
            open(n)(async (tx) => {
              expect((await tx.approvals.findById(approval.id))?.status).toBe('pending');
              await allOpen();
              const decided = await tx.approvals.decide(approval.id, {
                status: n % 2 === 0 ? 'approved' : 'denied',
                decidedByMemberId: seeded.memberId,
                decidedAt: at(round, n),
              });
              // Hold the row lock a moment, as a decision that also updates its card would.
              await new Promise((resolve) => setTimeout(resolve, 20));
              return decided;
            }),
          ),
        ),
        10_000,
        'ten concurrent decisions',
      );
      const winners = results.filter((r) => r !== null);
      expect({ round, winners: winners.length }).toEqual({ round, winners: 1 });
      const stored = await store.inWorkspace(ws, (tx) => tx.approvals.findById(approval.id));
      expect(stored).toEqual(winners[0]);
      expect(stored?.status).not.toBe('pending');
    }
  });
});
