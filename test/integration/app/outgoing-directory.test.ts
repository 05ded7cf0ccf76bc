import { frontEndServices } from '../../../src/app/front-end-services';
import { ServiceUnavailableError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/ports/logger';
import type { Store } from '../../../src/core/ports/store';
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

    /** The real store, its first `failures` transactions refused as by a server that is away. */
    const awayFor = (store: Store, failures: number): Store => {
      let left = failures;
      const away = () =>
        new ServiceUnavailableError(
          'database',
          'The database could not be reached: connect ECONNREFUSED',
          false,
        );
      return {
        transaction: (work) => (left-- > 0 ? Promise.reject(away()) : store.transaction(work)),
        inWorkspace: (workspaceId, work) =>
          left-- > 0 ? Promise.reject(away()) : store.inWorkspace(workspaceId, work),
        addToInbox: (entry) => store.addToInbox(entry),
        warm: () => store.warm(),
        close: () => store.close(),
      };
    };

    it('an outgoing call’s lookup of its channel’s owner is answered once the database is back', async () => {
      const services = frontEndServices({ store: awayFor(db.database.store, 2), logger: silentLogger });
      const owner = await services.outgoingDirectory.channelOwner('slack', acme.channelId, null);
      expect(owner?.workspaceId).toBe(acme.workspaceId);
    });

    it('an interaction’s lookup still fails at once while the database is away', async () => {
      const services = frontEndServices({ store: awayFor(db.database.store, 1), logger: silentLogger });
      await expect(services.directory.channelOwner('slack', acme.channelId, null)).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
    });
  },
);
