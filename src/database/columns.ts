/**
 * How a column's value, as either database's driver returns it, becomes the service's typed value:
 * the one place the rules live. Each repository reads its rows with these, in one function per row.
 * mysql2 returns BIGINT as a number (a string past 2^53-1), DATETIME as a Date (UTC, the session's
 * time zone) and BOOLEAN as 0/1; better-sqlite3 returns integers as numbers, times as the UTC text
 * Sql writes them in, and flags as 0/1.
 */

/** A row as the database answers it; each repository reads it into a typed value (Table, or the readers here). */
export type Row = Record<string, unknown>;

/** An id the database holds beyond what the service answers exactly; a 500, never a rounded or string id. */
export class IdOutOfRangeError extends Error {
  constructor(value: unknown) {
    super(
      `a row's id ${String(value)} is beyond 2^53-1, the largest id the service answers exactly ` +
        "(someone moved a table's AUTO_INCREMENT past it)",
    );
  }
}

/** An id: a whole number from 1 to 2^53-1, the rule for every id the service stores or answers. */
export function id(value: unknown): number {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number) || number < 1) throw new IdOutOfRangeError(value);
  return number;
}

/** A nullable id (a reference that may be unset). */
export function optionalId(value: unknown): number | null {
  return value === null || value === undefined ? null : id(value);
}

/** A whole number (a count, a quantity, a status code). */
export function integer(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

export function optionalInteger(value: unknown): number | null {
  return value === null || value === undefined ? null : integer(value);
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

export function optionalText(value: unknown): string | null {
  return value === null || value === undefined ? null : text(value);
}

/** A BOOLEAN column, 0 or 1 on both databases. */
export function flag(value: unknown): boolean {
  return Number(value) !== 0;
}

/** A DATETIME column: a Date from mysql2, UTC text (`YYYY-MM-DD HH:MM:SS.mmm`) from SQLite. */
export function datetime(value: unknown): Date {
  return value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`);
}

export function optionalDatetime(value: unknown): Date | null {
  return value === null || value === undefined ? null : datetime(value);
}
