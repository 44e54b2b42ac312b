import type { ColumnType, DataSource } from 'typeorm';

/**
 * Has TypeORM build entities with a column of `type` on `dataSource`, whose driver lists the types
 * it takes and refuses the others, whether or not the database would take them. Call before the
 * DataSource initializes. Written for TypeORM 1.1.1: test/unit/platform-typeorm.spec.ts pins the
 * version and checks that the list still decides, and that a column of the type then works.
 * Measured: an event's payload is MEDIUMTEXT on MySQL (TEXT stops at 64 KB); SQLite takes the name, TypeORM refuses it.
 */
export function acceptColumnType(dataSource: DataSource, type: ColumnType): void {
  dataSource.driver.supportedDataTypes.push(type);
}
