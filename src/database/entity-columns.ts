import { DefaultNamingStrategy } from 'typeorm';

/**
 * An entity column's side of portable-columns' unicodeText: text that any Unicode (emoji included)
 * round-trips through, utf8mb4 on MySQL. SQLite's text is Unicode already; TypeORM ignores these there.
 */
export const UNICODE_TEXT = { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' } as const;

/** Text a client's value is stored in or compared with byte for byte (an id, a key, a stored answer): utf8mb4_bin on MySQL. */
export const EXACT_TEXT = { charset: 'utf8mb4', collation: 'utf8mb4_bin' } as const;

/**
 * The name TypeORM gave the unique index of a migration's `isUnique` column: `UQ_` and a hash of the
 * table and column. An entity's own `unique: true` would name it `IDX_…` on MySQL, another index.
 */
export function uniqueColumnName(table: string, column: string): string {
  return new DefaultNamingStrategy().uniqueConstraintName(table, [column]);
}
