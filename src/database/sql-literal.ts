import { InsertedId, JsonWithInsertedId } from './statement.js';

/**
 * Values written into a statement's text as literals that no session setting can read as anything
 * else, for the one place the service sends values inside text (several statements in one round
 * trip, Sql.write): a string with a `_utf8mb4` introducer, as it is when it holds only printable
 * ASCII other than the quote and the backslash, else as a hexadecimal literal of its UTF-8 bytes
 * (as DBD::MariaDB writes them); either way it holds no quote, no backslash and no byte a
 * multi-byte character set could join to one, so neither NO_BACKSLASH_ESCAPES nor GBK changes it;
 * a number is its digits; a time its UTC digits. mysql2's own `query` escaping assumes backslash
 * escapes and the connection's character set (mysqljs/mysql#1828), so it is never used.
 */
export function sqlLiteral(value: unknown): string {
  return literalOf(value, insertedIdVariable);
}

/** Text whose every byte is one character in any character set, none of them a quote or a backslash (and not empty, which EMPTY_STRING_IS_NULL reads as NULL). */
const PLAIN_TEXT = /^[\x20-\x26\x28-\x5b\x5d-\x7e]+$/;

/** sqlLiteral, an inserted id written as `idExpression` says (LAST_INSERT_ID(), or a variable of the session). */
function literalOf(value: unknown, idExpression: (id: InsertedId) => string): string {
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    const literal = (member: unknown) => literalOf(member, idExpression);
    if (value instanceof SqlList) return value.values.map(literal).join(', ');
    // An id an earlier insert of the same round trip generated (idExpression: LAST_INSERT_ID(), or a variable of the session).
    if (value instanceof InsertedId) return idExpression(value);
    if (value instanceof JsonWithInsertedId) return `CONCAT(${literal(value.before)}, ${idExpression(value.id)}, ${literal(value.after)})`;
    if (value instanceof SqlRows) return value.rows.map((row) => `(${row.map(literal).join(', ')})`).join(', ');
  }
  switch (typeof value) {
    case 'string':
      // Printable ASCII but the quote and the backslash reads the same under every sql_mode and
      // character set as it is, at a third of the hex form's bytes (bench:alloc: 2 KB a keyed create).
      return PLAIN_TEXT.test(value) ? `_utf8mb4'${value}'` : `_utf8mb4 X'${Buffer.from(value, 'utf8').toString('hex')}'`;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} has no SQL literal`);
      return String(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? '1' : '0';
    case 'object':
      if (value === null) return 'NULL';
      if (value instanceof Date) return `'${utcDatetime(value)}'`;
  }
  throw new TypeError(`a ${typeof value} has no SQL literal`);
}

/**
 * The session variable that holds the id an insert named `id` generated, set right after it in the
 * same round trip (`SET @petstore_pet = LAST_INSERT_ID()`); its name is checked (InsertedId).
 */
export function insertedIdVariable(id: InsertedId): string {
  return `@petstore_${id.name}`;
}

/**
 * A parameter that stands for several values (`IN (?)`) or rows (`VALUES ?`). Its statement's text
 * changes with their number, so it is written with literals rather than prepared: a prepared
 * statement for each length would crowd the server's and the pool's caches of them.
 */
export class SqlList {
  constructor(readonly values: readonly unknown[]) {
    if (values.length === 0) throw new RangeError('an SQL list of no values');
  }
}

export class SqlRows {
  constructor(readonly rows: readonly (readonly unknown[])[]) {
    if (rows.length === 0) throw new RangeError('SQL rows of no row');
  }
}

/** `values` as one parameter: `WHERE id IN (?)`. */
export const listOf = (values: readonly unknown[]) => new SqlList(values);
/** `rows` as one parameter: `INSERT INTO t (a, b) VALUES ?`. */
export const rowsOf = (rows: readonly (readonly unknown[])[]) => new SqlRows(rows);

/** Whether a statement's parameters hold a list: it is then sent as text with literals. */
export function hasList(parameters: readonly unknown[]): boolean {
  return parameters.some((parameter) => parameter instanceof SqlList || parameter instanceof SqlRows);
}

/**
 * `sql` and `parameters` with each list's placeholder made one per value, for a driver that binds
 * every value itself (SQLite): `IN (?)` with three values becomes `IN (?, ?, ?)`.
 */
export function withListsExpanded(sql: string, parameters: readonly unknown[]): { sql: string; parameters: readonly unknown[] } {
  if (!hasList(parameters)) return { sql, parameters };
  const parts = sql.split('?');
  let text = parts[0];
  const values: unknown[] = [];
  parameters.forEach((parameter, i) => {
    if (parameter instanceof SqlList) {
      text += parameter.values.map(() => '?').join(', ');
      values.push(...parameter.values);
    } else if (parameter instanceof SqlRows) {
      text += parameter.rows.map((row) => `(${row.map(() => '?').join(', ')})`).join(', ');
      for (const row of parameter.rows) values.push(...row);
    } else {
      text += '?';
      values.push(parameter);
    }
    text += parts[i + 1];
  });
  return { sql: text, parameters: values };
}

/** A time as a DATETIME(3) takes it in UTC: `YYYY-MM-DD HH:MM:SS.mmm` (digits and separators only). */
export function utcDatetime(time: Date): string {
  const text = time.toISOString();
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(text)) throw new RangeError(`${text} is not a time a DATETIME holds`);
  return `${text.slice(0, 10)} ${text.slice(11, 23)}`;
}

/** Each statement text's parts around its `?` placeholders, split once. */
const partsOfText = new Map<string, readonly string[]>();

/**
 * `sql`, one of the service's constant statements, with each `?` replaced by the literal of its
 * value. The constants hold no `?` but their placeholders (no string literal of theirs has one).
 */
export function withLiterals(sql: string, values: readonly unknown[], idExpression?: (id: InsertedId) => string): string {
  let parts = partsOfText.get(sql);
  if (parts === undefined) partsOfText.set(sql, (parts = sql.split('?')));
  if (parts.length !== values.length + 1) throw new Error(`${values.length} values for ${parts.length - 1} placeholders: ${sql}`);
  let text = parts[0];
  for (let i = 0; i < values.length; i++) text += literalOf(values[i], idExpression ?? insertedIdVariable) + parts[i + 1];
  return text;
}

/**
 * The inserted ids `statements`, in this order, cannot take as LAST_INSERT_ID(): those another
 * insert comes between the insert that generates them and a statement that needs them (a stored
 * answer after the event's insert, say). Each of those is kept in a session variable right after
 * its insert; every other is LAST_INSERT_ID() where it is needed, which a statement reads before
 * its own insert changes it. Worked out from the statements, never left to their order by chance.
 */
export function idsKeptInVariables(
  statements: readonly { readonly sql: string; readonly parameters: readonly unknown[]; readonly inserts?: InsertedId }[],
): ReadonlySet<string> | undefined {
  let kept: Set<string> | undefined;
  let lastInsert: string | null = null;
  const note = (value: unknown): void => {
    if (value instanceof InsertedId || value instanceof JsonWithInsertedId) {
      const { name } = value instanceof InsertedId ? value : value.id;
      if (name !== lastInsert) (kept ??= new Set()).add(name);
    } else if (value instanceof SqlRows) value.rows.forEach((row) => row.forEach(note));
    else if (value instanceof SqlList) value.values.forEach(note);
  };
  for (const { sql, parameters, inserts } of statements) {
    parameters.forEach(note);
    if (sql.startsWith('INSERT')) lastInsert = inserts?.name ?? null;
  }
  return kept;
}
