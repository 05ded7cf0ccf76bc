/**
 * Whether test databases are kept for the next test of the same file (see `test-database.ts`),
 * and closing them when the file ends. Kept apart, with no imports, so that the jest setup file
 * (`test-database-setup.ts`) that turns reuse on costs a file without databases nothing.
 *
 * Reuse is on only where something closes the kept databases at the end: outside jest (a bench,
 * a script) every test database is opened and removed as before.
 */
type Drain = () => Promise<void>;

const drains = new Set<Drain>();
let enabled = false;

/** Called by the jest setup file, once per test file, with its `afterAll` to drain. */
export const enableTestDatabaseReuse = (): void => {
  enabled = true;
};

export const testDatabaseReuseEnabled = (): boolean => enabled;

/** A pool of kept databases registers how to close them. */
export const onTestFileEnd = (drain: Drain): void => {
  drains.add(drain);
};

/**
 * Closes every kept database; reuse is off from here on, so a database disposed later (by an
 * `afterAll` that runs after this one) is closed and removed at once.
 */
export const closeKeptTestDatabases = async (): Promise<void> => {
  enabled = false;
  const errors: unknown[] = [];
  for (const drain of drains) await drain().catch((error: unknown) => errors.push(error));
  drains.clear();
  if (errors.length > 0) throw new AggregateError(errors, 'Closing the kept test databases failed.');
};
