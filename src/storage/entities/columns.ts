import type { EntitySchemaColumnOptions, EntitySchemaOptions } from 'typeorm';

/** Not exported by name from 'typeorm'. */
type EntitySchemaForeignKeyOptions = NonNullable<EntitySchemaOptions<object>['foreignKeys']>[number];

/**
 * Column and constraint shorthands for the entity schemas. The entities mirror the hand-written
 * migrations (constraint names included) so that TypeORM's schema diff against a migrated
 * database is empty; they never create anything themselves (`synchronize` is off).
 */

export const primaryId = (table: string): EntitySchemaColumnOptions => ({
  type: 'uuid',
  primary: true,
  generated: 'uuid',
  primaryKeyConstraintName: `pk_${table}`,
});

/** Creation order: `seq` breaks ties between rows created in one transaction (same `now()`). */
export const creationSeq: EntitySchemaColumnOptions = { type: 'bigint', generated: 'increment' };

export const uuid = (nullable = false): EntitySchemaColumnOptions => ({ type: 'uuid', nullable });

export const text = (options: { nullable?: boolean; default?: string } = {}): EntitySchemaColumnOptions => ({
  type: 'text',
  nullable: options.nullable ?? false,
  ...(options.default === undefined ? {} : { default: options.default }),
});

export const textArray: EntitySchemaColumnOptions = { type: 'text', array: true, default: () => "'{}'" };

export const uuidArray: EntitySchemaColumnOptions = { type: 'uuid', array: true, default: () => "'{}'" };

export const integer = (
  options: { nullable?: boolean; default?: number } = {},
): EntitySchemaColumnOptions => ({
  type: 'integer',
  nullable: options.nullable ?? false,
  ...(options.default === undefined ? {} : { default: options.default }),
});

export const boolean = (defaultValue: boolean): EntitySchemaColumnOptions => ({
  type: 'boolean',
  default: defaultValue,
});

export const jsonb = (defaultJson: string): EntitySchemaColumnOptions => ({
  type: 'jsonb',
  default: () => `'${defaultJson}'`,
});

export const timestamp = (
  options: { nullable?: boolean; defaultNow?: boolean } = {},
): EntitySchemaColumnOptions => ({
  type: 'timestamptz',
  nullable: options.nullable ?? false,
  ...(options.defaultNow ? { default: () => 'now()' } : {}),
});

export const createdAt: EntitySchemaColumnOptions = timestamp({ defaultNow: true });

/** `column IN ('a', 'b')`: the closed vocabularies of `src/core/model`. */
export const oneOf = (column: string, values: readonly string[]): string =>
  `${column} IN (${values.map((v) => `'${v}'`).join(', ')})`;

/** A plain foreign key to a workspace-independent parent (only `workspaces` itself). */
export const workspaceForeignKey = (table: string): EntitySchemaForeignKeyOptions => ({
  name: `fk_${table}_workspace`,
  target: 'workspaces',
  columnNames: ['workspaceId'],
  referencedColumnNames: ['id'],
  onDelete: 'CASCADE',
});

/**
 * A2: a reference inside one workspace is (id, workspace_id), so that a row can never point at
 * another workspace's row (foreign key checks are not subject to row-level security).
 * `checkedAtCommit`: see DEFERRED_FOREIGN_KEYS in the RunCardsAndReplies migration.
 */
export const sameWorkspaceForeignKey = (
  name: string,
  column: string,
  target: string,
  onDelete: 'CASCADE' | 'SET NULL',
  options: { checkedAtCommit?: boolean } = {},
): EntitySchemaForeignKeyOptions => ({
  name,
  target,
  columnNames: [column, 'workspaceId'],
  referencedColumnNames: ['id', 'workspaceId'],
  onDelete,
  ...(options.checkedAtCommit ? { deferrable: 'INITIALLY DEFERRED' as const } : {}),
});
