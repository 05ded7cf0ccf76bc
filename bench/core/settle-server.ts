import { Client } from 'pg';

/**
 * Writes out what a set-up left the PostgreSQL server to write (a fresh database copied from its
 * template, its migrations): a `CHECKPOINT`, so that the flush of those pages does not land in a
 * measured stretch and stall the commits the stretch is timing. Needs a superuser (the bench's
 * default); another user is told so and the bench goes on unsettled.
 */
export async function settleServer(postgresServerUrl: string, log: (line: string) => void): Promise<void> {
  const client = new Client({ connectionString: postgresServerUrl });
  await client.connect();
  try {
    await client.query('CHECKPOINT');
  } catch (error) {
    log(
      `(could not checkpoint the server before measuring: ${error instanceof Error ? error.message : String(error)})`,
    );
  } finally {
    await client.end();
  }
}
