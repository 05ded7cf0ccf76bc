import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';

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
