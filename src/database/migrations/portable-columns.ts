import { type QueryRunner, TableColumn, type TableColumnOptions } from 'typeorm';
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

/**
 * Sets the scopes a key made without a choice holds (api_keys.scopes's default), as a migration that
 * adds scopes does: on MySQL in place, on SQLite by TypeORM's rebuild of the (small) table.
 */
export async function apiKeyScopesDefault(queryRunner: QueryRunner, scopes: string): Promise<void> {
  if (isMysql(queryRunner)) await queryRunner.query(`ALTER TABLE api_keys ALTER scopes SET DEFAULT '${scopes}'`);
  else
    await queryRunner.changeColumn(
      'api_keys',
      'scopes',
      new TableColumn({ name: 'scopes', type: 'varchar', length: '255', default: `'${scopes}'` }),
    );
}

/**
 * The server's collation for text compared as SQLite compares it: binary (case and accents count)
 * and NO PAD (so does a trailing space, which utf8mb4_bin ignores): utf8mb4_nopad_bin on MariaDB
 * (10.2 on), utf8mb4_0900_bin on MySQL (8.0.17 on). Checked on the server, which then compares
 * `a` and `a ` as two values, or the migration stops: text that pads would match what it must not.
 */
export async function exactCollation(database: { query(sql: string): Promise<unknown> }): Promise<string> {
  const rows = (await database.query(
    "SELECT COLLATION_NAME AS name FROM information_schema.COLLATIONS WHERE COLLATION_NAME IN ('utf8mb4_nopad_bin', 'utf8mb4_0900_bin')",
  )) as { name: string }[];
  const names = rows.map(({ name }) => name);
  const name = ['utf8mb4_nopad_bin', 'utf8mb4_0900_bin'].find((candidate) => names.includes(candidate));
  if (name) {
    const [{ padded, folded }] = (await database.query(
      `SELECT _utf8mb4'a' = _utf8mb4'a ' COLLATE ${name} AS padded, _utf8mb4'a' = _utf8mb4'A' COLLATE ${name} AS folded`,
    )) as { padded: unknown; folded: unknown }[];
    if (Number(padded) === 0 && Number(folded) === 0) return name;
  }
  throw new Error(
    'the server has no utf8mb4 collation that is binary and NO PAD (utf8mb4_nopad_bin, utf8mb4_0900_bin): ' +
      'the service needs MySQL 8.0.17 or later, or MariaDB 10.6 or later (docs/DEPLOYING.md)',
  );
}
