import { QueryFailedError } from 'typeorm';

/** The driver's code of a failed query's error, on MySQL or SQLite. */
function codeOf(error: unknown): string | undefined {
  return error instanceof QueryFailedError ? (error.driverError as { code?: string } | undefined)?.code : undefined;
}

/** Whether a query failed on a unique index, on MySQL or SQLite. */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Whether a query failed on a foreign key: the row it refers to does not exist. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ER_NO_REFERENCED_ROW_2' || code === 'ER_NO_REFERENCED_ROW' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Whether a delete failed on a foreign key: other rows refer to the row. SQLite says so with the
 * code of a trigger for a RESTRICT action, and with its foreign key's code otherwise.
 */
export function isReferencedRow(error: unknown): boolean {
  const code = codeOf(error);
  if (code === 'SQLITE_CONSTRAINT_TRIGGER') return /FOREIGN KEY/.test((error as QueryFailedError).message);
  return code === 'ER_ROW_IS_REFERENCED_2' || code === 'ER_ROW_IS_REFERENCED' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
