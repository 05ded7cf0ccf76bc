import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { persistentValue } from '../../../src/storage/store/column-literal';
import { hydrate } from '../../../src/storage/store/statements-together';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { seedWorkspace } from './workspace-fixture';

/** Values of a column's type as pg hands them over or the code writes them; null and undefined for all. */
const samples = (column: ColumnMetadata): unknown[] => {
  const type = typeof column.type === 'string' ? column.type : column.type.name.toLowerCase();
  const typed: Record<string, unknown[]> = {
    boolean: [true, false],
    jsonb: [{ agents: [{ agentId: 'a', name: 'b' }], n: null }, [1, 'x', null], 'text', 7, false],
    timestamptz: [new Date('2026-12-06T10:00:00.123Z'), '2026-12-06 10:00:00.123+00'],
    integer: [42, '42'],
    bigint: ['9007199254740993', 12],
    numeric: ['0.000125', 3],
  };
  return [null, undefined, ...(typed[type] ?? ['x', "it's", 'back\\slash', ''])];
};

/**
 * T3: the storage layer's own hydration and literals skip the driver's preparation for the
 * columns whose values it hands back unchanged (`columnKind`). For every column of every entity
 * — a column added later included — they give exactly what the driver's own path gives, and a
 * row read by plain SQL and hydrated is exactly the row TypeORM reads through the entity.
 */
describe.each(DATABASE_KINDS)('column kinds on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.dispose());

  it('T3: hydrate and persistentValue give what the driver gives, for every column and type', () => {
    const { manager } = db.database.dataSource;
    const driver = manager.connection.driver;
    let checked = 0;
    for (const metadata of db.database.dataSource.entityMetadatas) {
      for (const column of metadata.columns) {
        for (const value of samples(column)) {
          const expected = {};
          column.setEntityValue(expected, driver.prepareHydratedValue(value, column));
          const got = hydrate(manager, metadata.target, { [column.databaseName]: value });
          expect({ column: column.propertyPath, value, row: got }).toStrictEqual({
            column: column.propertyPath,
            value,
            row: expected,
          });
          expect(persistentValue(manager, column, value)).toStrictEqual(
            driver.preparePersistentValue(value, column),
          );
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('T3: every seeded row read by SELECT * and hydrated is the row TypeORM reads (nulls, dates, jsonb)', async () => {
    await seedWorkspace(db.database.store, 'acme');
    const { manager } = db.database.dataSource;
    let compared = 0;
    for (const metadata of db.database.dataSource.entityMetadatas) {
      const primary = metadata.primaryColumns.map((column) => column.databaseName);
      const raws = (await manager.query(`SELECT * FROM "${metadata.tableName}"`)) as Record<
        string,
        unknown
      >[];
      for (const raw of raws) {
        const where = Object.fromEntries(
          metadata.primaryColumns.map((column) => [column.propertyName, raw[column.databaseName]]),
        );
        const read = await manager.getRepository(metadata.target).findOneByOrFail(where);
        expect({
          table: metadata.tableName,
          primary,
          row: hydrate(manager, metadata.target, raw),
        }).toStrictEqual({
          table: metadata.tableName,
          primary,
          row: { ...read },
        });
        compared += 1;
      }
    }
    // The seed fills workspaces, members, agents, spaces, conversations, messages, runs and more.
    expect(compared).toBeGreaterThan(10);
  });
});
