import type { QueryRunner, TableColumnOptions } from 'typeorm';
import { isMysql as isMysqlDataSource } from '../sql-dialect.js';

/**
 * Column shapes that mean the same on MySQL and SQLite, so one migration serves both.
 * SQLite only auto-increments an `integer` primary key; MySQL needs `bigint` for int64 ids.
 */
export function isMysql(queryRunner: QueryRunner): boolean {
  return isMysqlDataSource(queryRunner.connection.driver.options);
}

export function idColumn(queryRunner: QueryRunner): TableColumnOptions {
  return {
    name: 'id',
    type: isMysql(queryRunner) ? 'bigint' : 'integer',
    isPrimary: true,
    isGenerated: true,
    generationStrategy: 'increment',
  };
}

/** Text that any Unicode (emoji included) round-trips through: utf8mb4 on MySQL, native on SQLite. */
export function unicodeText(queryRunner: QueryRunner, column: Omit<TableColumnOptions, 'type'>): TableColumnOptions {
  return isMysql(queryRunner)
    ? { ...column, type: 'varchar', charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' }
    : { ...column, type: 'varchar' };
}
