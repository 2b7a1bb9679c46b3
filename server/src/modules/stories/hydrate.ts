import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

const columnsOf = new WeakMap<object, ColumnMetadata[]>();

/**
 * An entity from a raw row (`SELECT t.*, …` or `RETURNING *`), converted exactly as TypeORM's own
 * hydration does (the driver's value preparation per column), without its query builder: the hot
 * path reads and writes with hand-written SQL and still hands out real entity instances.
 * Columns absent from the row stay unset; extra fields of the row are ignored.
 */
export function hydrate<T extends ObjectLiteral>(ds: DataSource, target: EntityTarget<T>, row: Record<string, unknown>): T {
  const meta = ds.getMetadata(target);
  let columns = columnsOf.get(meta);
  if (!columns) {
    columns = meta.columns.filter((c) => !c.isVirtual && c.embeddedMetadata === undefined);
    columnsOf.set(meta, columns);
  }
  const entity = meta.create() as T;
  for (const col of columns) {
    if (!(col.databaseName in row)) continue;
    (entity as Record<string, unknown>)[col.propertyName] = ds.driver.prepareHydratedValue(row[col.databaseName], col);
  }
  return entity;
}
