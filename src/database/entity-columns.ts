import { DefaultNamingStrategy } from 'typeorm';

/**
 * An entity column's side of portable-columns' unicodeText: text that any Unicode (emoji included)
 * round-trips through, utf8mb4 on MySQL. SQLite's text is Unicode already; TypeORM ignores these there.
 */
export const UNICODE_TEXT = { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' } as const;

/** A JSON document stored byte for byte and never compared (a payload, a stored answer): utf8mb4_bin on MySQL. */
export const EXACT_TEXT = { charset: 'utf8mb4', collation: 'utf8mb4_bin' } as const;

/**
 * The collation the entities declare for text compared as SQLite compares it, binary and NO PAD: MySQL
 * 8's name, which migrations are generated against (docs/DEVELOPING.md); MariaDB's is
 * utf8mb4_nopad_bin, and the migrations make each server's own (portable-columns' exactCollation).
 */
export const EXACT_COLLATION = 'utf8mb4_0900_bin';

/**
 * Text the service compares or keeps unique (an id, a key, a status, a metadata pair) and every other
 * that is no label: utf8mb4 whatever the database's default, and `A-1 ` is not `A-1`, nor `a` `A`.
 */
export const COMPARED_TEXT = { charset: 'utf8mb4', collation: EXACT_COLLATION } as const;

/**
 * The name TypeORM gave the unique index of a migration's `isUnique` column: `UQ_` and a hash of the
 * table and column. An entity's own `unique: true` would name it `IDX_…` on MySQL, another index.
 */
export function uniqueColumnName(table: string, column: string): string {
  return new DefaultNamingStrategy().uniqueConstraintName(table, [column]);
}
