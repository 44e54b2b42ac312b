import type { EntityMetadata, ValueTransformer } from 'typeorm';
import { datetime, flag, id, integer, optionalDatetime, optionalId, optionalInteger, optionalText, type Row, text } from './columns.js';

/**
 * A table's columns as its entity declares them (the one declaration of a stored field): for the
 * properties a repository names, the select list (`category_id AS categoryId`), the reader of a row
 * into typed values, and the column lists of an insert and an update, all worked out once at start
 * from TypeORM's metadata of the entity. The statements themselves stay written out in the
 * repository, where their plans matter; they take their column lists from here.
 */
/** A column as TypeORM's metadata of an entity describes it (EntityMetadata.columns). */
type ColumnMetadata = EntityMetadata['columns'][number];

export class Table<E, K extends keyof E & string> {
  readonly name: string;
  /** `id, name, category_id AS categoryId, …`, for a SELECT. */
  readonly columns: string;
  private readonly fields: readonly { readonly property: K; readonly column: ColumnMetadata; readonly read: (value: unknown) => unknown }[];

  constructor(metadata: EntityMetadata, properties: readonly K[]) {
    this.name = metadata.tableName;
    this.fields = properties.map((property) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${metadata.name} has no column for ${property}`);
      return { property, column, read: readerOf(column) };
    });
    this.columns = this.fields.map(({ property, column }) => selected(column, property)).join(', ');
    // The properties are the entity's own names (identifiers TypeORM read from its decorators), never a client's text.
    const members = this.fields.map(({ property }, i) => `${JSON.stringify(property)}: read[${i}](row[${JSON.stringify(property)}])`);
    this.read = new Function('read', `return (row) => ({ ${members.join(', ')} });`)(this.fields.map(({ read }) => read)) as (
      row: Row,
    ) => Pick<E, K>;
  }

  /**
   * A row of the select list, as typed values: what the entity's properties hold. Written as an
   * object literal of those properties, once (bench:alloc: an object grown property by property in
   * a loop cost listPets 2 KB a request more, its fifth property onwards kept outside the object).
   */
  readonly read: (row: Row) => Pick<E, K>;

  /** The select list with each column of the table `alias` (`p.category_id AS categoryId`), for a join. */
  columnsOf(alias: string): string {
    return this.fields.map(({ property, column }) => selected(column, property, alias)).join(', ');
  }

  /** The column of a property. */
  column(property: K): string {
    const { column } = this.field(property);
    if (column.query) throw new Error(`${this.name}.${property} is read from a query, never written`);
    return column.databaseName;
  }

  /**
   * `INSERT INTO table (a, b) VALUES (?, ?)` for `properties`, and the values of an object for one
   * row, in order; with `many`, `VALUES ?`, for its rows given as one parameter (rowsOf).
   */
  insert<P extends K>(properties: readonly P[], many = false): WrittenColumns<E, P> {
    const row = many ? '?' : `(${properties.map(() => '?').join(', ')})`;
    const sql = `INSERT INTO ${this.name} (${properties.map((property) => this.column(property)).join(', ')}) VALUES ${row}`;
    return { sql, values: this.valuesOf(properties) };
  }

  /** `a = ?, b = ?` for `properties` (an UPDATE's SET list), and the values of an object for it, in order. */
  set<P extends K>(properties: readonly P[]): WrittenColumns<E, P> {
    return { sql: properties.map((property) => `${this.column(property)} = ?`).join(', '), values: this.valuesOf(properties) };
  }

  private valuesOf<P extends K>(properties: readonly P[]): (object: Pick<E, P>) => unknown[] {
    const writers = properties.map((property) => {
      const to = transformerOf(this.field(property).column)?.to;
      return to ? (object: Pick<E, P>) => to(object[property]) : (object: Pick<E, P>) => object[property];
    });
    return (object) => writers.map((write) => write(object));
  }

  private field(property: K) {
    const field = this.fields.find((candidate) => candidate.property === property);
    if (!field) throw new Error(`${property} is not among the ${this.name} properties read`);
    return field;
  }
}

/** The text of a statement's column part, and the values an object gives it, in the order of its placeholders. */
export interface WrittenColumns<E, P extends keyof E> {
  readonly sql: string;
  readonly values: (object: Pick<E, P>) => unknown[];
}

/**
 * A column in a select list, as `property`: its own (`category_id AS categoryId`), or for a virtual
 * column (TypeORM's VirtualColumn: livemode) the expression its query gives, `(environment = 0) AS livemode`.
 */
function selected(column: ColumnMetadata, property: string, alias?: string): string {
  if (column.query) return `(${column.query(alias ?? '')}) AS ${property}`;
  const name = alias ? `${alias}.${column.databaseName}` : column.databaseName;
  return name === property ? property : `${name} AS ${property}`;
}

/** How a column's value, as either driver returns it, is read (columns.ts), then through the entity's transformer, if any. */
function readerOf(column: ColumnMetadata): (value: unknown) => unknown {
  const read = baseReaderOf(column);
  const from = transformerOf(column)?.from;
  return from ? (value) => from(read(value)) : read;
}

function baseReaderOf({ type, isNullable, isPrimary, propertyName, entityMetadata }: ColumnMetadata): (value: unknown) => unknown {
  switch (type) {
    case 'bigint':
      // An environment (EnvironmentColumn, the one bigint that defaults to 0): live's 0, or a sandbox's id.
      if (propertyName === 'environment') return integer;
      // Every bigint the service stores is an id or one of another's (1 to 2^53-1): a value past it is a 500, never rounded.
      return isNullable ? optionalId : id;
    case 'int':
    case 'integer':
      return isNullable && !isPrimary ? optionalInteger : integer;
    case 'varchar':
    case 'text':
    case 'mediumtext':
      return isNullable ? optionalText : text;
    case 'boolean':
      return flag;
    case 'datetime':
      return isNullable ? optionalDatetime : datetime;
    default:
      throw new Error(`${entityMetadata.name}.${propertyName}: no reader for a ${String(type)} column`);
  }
}

function transformerOf(column: ColumnMetadata): ValueTransformer | undefined {
  if (Array.isArray(column.transformer)) throw new Error(`${column.propertyName}: one transformer per column`);
  return column.transformer;
}
