import { frontEndServices } from '../../../src/app/front-end-services';
import { ServiceUnavailableError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/ports/logger';
import { waitFor } from '../../support/engine-harness';
import { OutageSwitch, outcomeOf } from '../../support/outage-switch';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from '../storage/workspace-fixture';

/**
 * P7, T2: an outgoing call looks up its channel's owner (which workspace's outbox stores it)
 * before it is stored. During a database outage of seconds that lookup waits for the database,
 * as the outbox does; before, it failed at once and the call was lost (a Slack session status
 * taken for a refusal, and not sent again for that thread). Interactions keep lookups that fail
 * fast: a click must be answered within the platform's seconds.
 */
describe.each(DATABASE_KINDS)(
  'P7, T2: the outgoing calls’ directory waits out a database outage, on %s',
  (kind) => {
    let db: TestDatabase;
    let acme: SeededWorkspace;

    beforeAll(async () => {
      db = await openTestDatabase(kind);
      acme = await seedWorkspace(db.database.store, 'acme');
    });
    afterAll(() => db.dispose());

    it('an outgoing call’s lookup of its channel’s owner is answered once the database is back', async () => {
      const database = new OutageSwitch(db.database.store);
      const services = frontEndServices({ store: database.store, logger: silentLogger });
      database.down();
      const lookup = services.outgoingDirectory.channelOwner('slack', acme.channelId, null);
      const outcome = outcomeOf(lookup);
      await waitFor(async () => database.refused > 1 || outcome.now !== 'pending', 10_000);
      expect(outcome.now).toBe('pending');
      database.up();
      expect((await lookup)?.workspaceId).toBe(acme.workspaceId);
    });

    it('an interaction’s lookup still fails at once while the database is away', async () => {
      const database = new OutageSwitch(db.database.store);
      const services = frontEndServices({ store: database.store, logger: silentLogger });
      database.down();
      await expect(services.directory.channelOwner('slack', acme.channelId, null)).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
      expect(database.refused).toBe(1);
    });
  },
);
