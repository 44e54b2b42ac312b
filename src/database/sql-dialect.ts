import type { DataSourceOptions } from 'typeorm';

/** Whether TypeORM's options talk to MySQL (MariaDB included): the one test of it. */
export function isMysql({ type }: Pick<DataSourceOptions, 'type'>): boolean {
  return type === 'mysql' || type === 'mariadb';
}

/**
 * The few places where the statements the repositories write out differ between MySQL and SQLite.
 * Everything else they write is the SQL both understand.
 */
export class SqlDialect {
  readonly mysql: boolean;
  /** The database's clock, to the millisecond, as `now`. */
  readonly nowSql: string;
  /** The id the transaction's last insert generated, as an expression. */
  readonly insertedId: string;
  /**
   * An expression that writes a JsonWithInsertedId: its `before` and `after` as the two parameters,
   * and between them the id the transaction's last insert generated. For the statements that record
   * what an insert made in the same round trip (its event, its stored answer).
   */
  readonly jsonWithInsertedId: string;

  constructor(options: DataSourceOptions) {
    this.mysql = isMysql(options);
    this.nowSql = this.mysql ? 'SELECT UTC_TIMESTAMP(3) AS now' : "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now') AS now";
    this.insertedId = this.mysql ? 'LAST_INSERT_ID()' : 'last_insert_rowid()';
    this.jsonWithInsertedId = this.mysql ? `CONCAT(?, ${this.insertedId}, ?)` : `(? || ${this.insertedId} || ?)`;
  }

  /**
   * ` FORCE INDEX (name)` on MySQL for a keyset page with a filter: MariaDB otherwise reads
   * `status = ? AND id > ? ORDER BY id LIMIT n` through the index on status alone and tests every id
   * it passes (400 ms for a page deep in the chain at 1,000,000 pets, against 0.25 ms when it seeks
   * on both columns: bench/, --scale). SQLite's planner seeks on both by itself.
   */
  forceIndex(name: string): string {
    return this.mysql ? ` FORCE INDEX (${name})` : '';
  }

  /** ` FOR UPDATE SKIP LOCKED` on MySQL, where replicas claim rows side by side; SQLite has one writer at a time. */
  get skipLocked(): string {
    return this.mysql ? ' FOR UPDATE SKIP LOCKED' : '';
  }
}
