import type { TurnCheckpoint } from '../../../src/core/ports/run-checkpoints';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

describe.each(DATABASE_KINDS)('A15, T2: a compacted turn’s checkpoint on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
  });
  afterAll(() => db.dispose());

  const saveAndFind = async (checkpoint: TurnCheckpoint) =>
    db.database.store.inWorkspace(acme.workspaceId, async (tx) => {
      await tx.checkpoints.save(acme.workspaceId, {
        runId: acme.runId,
        checkpoint,
        statusCardRef: null,
        at: new Date(Date.UTC(2026, 11, 5, 4, 0, 0)),
      });
      return (await tx.checkpoints.find(acme.runId))?.checkpoint;
    });

  it('A15, T2: the summary of the compacted rounds is read back with the rounds kept after it', async () => {
    const checkpoint: TurnCheckpoint = {
      format: 'anthropic',
      exchanges: [[{ role: 'assistant', content: 'kept' }]],
      round: null,
      rounds: 12,
      nudged: false,
      summary: 'Read f0 to f10; the bug is in f4.',
    };
    expect(await saveAndFind(checkpoint)).toEqual(checkpoint);
  });

  it('A15: a checkpoint of a turn never compacted has no summary', async () => {
    const found = await saveAndFind({
      format: 'openai',
      exchanges: [],
      round: null,
      rounds: 0,
      nudged: false,
    });
    expect(found).toEqual({ format: 'openai', exchanges: [], round: null, rounds: 0, nudged: false });
    expect(found).not.toHaveProperty('summary');
  });
});
