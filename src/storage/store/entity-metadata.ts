import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

const metadataByTarget = new WeakMap<DataSource, Map<EntityTarget<ObjectLiteral>, EntityMetadata>>();

/**
 * T3: the entity's metadata, looked up once per data source: TypeORM finds an entity schema's by
 * walking all of them, and every statement sent with others asks for it.
 */
export const entityMetadata = <Row extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<Row>,
): EntityMetadata => {
  let known = metadataByTarget.get(manager.connection);
  if (known === undefined) {
    known = new Map();
    metadataByTarget.set(manager.connection, known);
  }
  let metadata = known.get(entity as EntityTarget<ObjectLiteral>);
  if (metadata === undefined) {
    metadata = manager.connection.getMetadata(entity);
    known.set(entity as EntityTarget<ObjectLiteral>, metadata);
  }
  return metadata;
};

/**
 * What the PostgreSQL driver does with a column's values, read once from its metadata (T3: its
 * `preparePersistentValue` and `prepareHydratedValue` test the type against lists built per
 * call, for every value of every row). `same`: a value comes back unchanged (no transformer, a
 * type the driver passes through: read from its own code); `json`: written as `JSON.stringify`;
 * `driver`: anything else goes through the driver. `plain`: set on a row as its property alone
 * (not embedded, not a relation's virtual column), as `setEntityValue` then does.
 */
export interface ColumnKind {
  readonly persist: 'same' | 'json' | 'driver';
  readonly hydrate: 'same' | 'driver';
  readonly plain: boolean;
  readonly quotedName: string;
  /** One character naming the column within its entity (its place among the entity's columns). */
  readonly code: string;
}

/** Types both of the driver's preparations hand back unchanged (not `Boolean`, `Number`: those are converted). */
const UNCHANGED = new Set<unknown>([
  'uuid',
  'text',
  'varchar',
  'character varying',
  'integer',
  'int',
  'int4',
  'bigint',
  'int8',
  'smallint',
  'numeric',
  'boolean',
]);
/** Types the driver writes as `JSON.stringify` and reads back as pg parsed them. */
const JSON_TYPES = new Set<unknown>(['json', 'jsonb']);

const kinds = new WeakMap<ColumnMetadata, ColumnKind>();

export const columnKind = (column: ColumnMetadata): ColumnKind => {
  let kind = kinds.get(column);
  if (kind === undefined) {
    const untransformed = column.transformer === undefined;
    const unchanged = untransformed && UNCHANGED.has(column.type);
    const json = untransformed && JSON_TYPES.has(column.type);
    kind = {
      persist: unchanged ? 'same' : json ? 'json' : 'driver',
      hydrate: unchanged || json ? 'same' : 'driver',
      plain: column.embeddedMetadata === undefined && !column.isVirtual,
      quotedName: `"${column.databaseName.replace(/"/g, '""')}"`,
      code: String.fromCharCode(0x100 + column.entityMetadata.columns.indexOf(column)),
    };
    kinds.set(column, kind);
  }
  return kind;
};

const byProperty = new WeakMap<EntityMetadata, Map<string, ColumnMetadata | undefined>>();

/** `findColumnWithPropertyPath`, remembered per entity (T3: it walks every column each call). */
export const columnByProperty = (metadata: EntityMetadata, property: string): ColumnMetadata | undefined => {
  let known = byProperty.get(metadata);
  if (known === undefined) {
    known = new Map();
    byProperty.set(metadata, known);
  }
  if (known.has(property)) return known.get(property);
  const column = metadata.findColumnWithPropertyPath(property);
  known.set(property, column);
  return column;
};
