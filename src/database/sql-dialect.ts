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
  /**
   * ` FOR UPDATE` on MySQL, for the read a write decides on: it holds the rows it read until the
   * write commits, so that changes of one row queue on it (a Galera cluster's writes go to one
   * node, whose locks they are). SQLite's transaction holds the database's one write lock already.
   */
  readonly forUpdate: string;
  /**
   * A join made in the order written, the first table driving: `STRAIGHT_JOIN` on MySQL, `CROSS
   * JOIN` on SQLite (whose planner keeps a CROSS JOIN's order). For a page read from one table's index.
   */
  readonly joinInOrder: string;

  constructor(options: DataSourceOptions) {
    this.mysql = isMysql(options);
    this.nowSql = this.mysql ? 'SELECT UTC_TIMESTAMP(3) AS now' : "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now') AS now";
    this.forUpdate = this.mysql ? ' FOR UPDATE' : '';
    this.joinInOrder = this.mysql ? 'STRAIGHT_JOIN' : 'CROSS JOIN';
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

  /**
   * A statement that deletes at most `?` (the second parameter) rows of `table` whose environment is
   * `?` (the first), through the table's index that leads with it: `DELETE … LIMIT` on MySQL; SQLite,
   * built without DELETE … LIMIT, deletes the rows a limited subquery names. `table` is a constant of
   * ours, never a client's text.
   */
  deleteSomeOfEnvironment(table: string): string {
    return this.mysql
      ? `DELETE FROM ${table} WHERE environment = ? LIMIT ?`
      : `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE environment = ? LIMIT ?)`;
  }

  /** ` FOR UPDATE SKIP LOCKED` on MySQL, where replicas claim rows side by side; SQLite has one writer at a time. */
  get skipLocked(): string {
    return this.mysql ? ' FOR UPDATE SKIP LOCKED' : '';
  }
}
