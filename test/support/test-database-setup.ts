import { closeKeptTestDatabases, enableTestDatabaseReuse } from './test-database-reuse';

/**
 * jest `setupFilesAfterEnv` of the integration project: within one test file, a disposed test
 * database is kept and reset for the next test instead of being removed and copied anew; the
 * kept ones are closed and removed when the file ends. `SUMMON_TEST_DATABASE_REUSE=off` gives
 * every test a new copy (to rule reuse out when a test fails, or to measure it).
 */
if (process.env.SUMMON_TEST_DATABASE_REUSE !== 'off') enableTestDatabaseReuse();
afterAll(closeKeptTestDatabases);
