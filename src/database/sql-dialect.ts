import type { DataSource, EntityManager } from 'typeorm';
import { INSERTED_ID } from './sql.js';

/**
 * The few places where the statements the repositories write out differ between MySQL and SQLite.
 * Everything else they write is the SQL both understand.
 */
export class SqlDialect {
  readonly mysql: boolean;

  constructor(dataSource: DataSource) {
    const { type } = dataSource.options;
    this.mysql = type === 'mysql' || type === 'mariadb';
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
   * A DATETIME value as a statement parameter. mysql2 writes a Date in UTC (the pool's timezone is
   * 'Z'); SQLite keeps UTC text, `YYYY-MM-DD HH:MM:SS.mmm`, the form the rows already stored have.
   */
  datetime(value: Date): Date | string {
    return this.mysql ? value : value.toISOString().replace('T', ' ').replace('Z', '');
  }

  /** A DATETIME column as read: a Date from mysql2, that UTC text from SQLite. */
  readDatetime(value: unknown): Date {
    return value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`);
  }

  /**
   * The database's clock, to the millisecond, on `manager`'s connection: times that other processes
   * compare (a key's expiry) are counted from one clock, whichever machine the tool runs on.
   */
  async now(manager: EntityManager): Promise<Date> {
    const [row] = await manager.query(this.mysql ? 'SELECT UTC_TIMESTAMP(3) AS now' : "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now') AS now");
    return this.readDatetime(row.now);
  }

  /**
   * `value` as JSON text, with the id the transaction's last insert generated wherever `value`
   * holds INSERTED_ID: an SQL expression that writes it, and its parameters. For the statements
   * that record what an insert made in the same round trip (its event, its stored response).
   */
  jsonWithInsertedId(value: unknown): { expression: string; parameters: string[] } {
    const parameters = JSON.stringify(value).split(String(INSERTED_ID));
    if (parameters.length === 1) return { expression: '?', parameters };
    const insertedId = this.mysql ? 'LAST_INSERT_ID()' : 'last_insert_rowid()';
    const parts = parameters.map(() => '?');
    const expression = this.mysql ? `CONCAT(${parts.join(`, ${insertedId}, `)})` : parts.join(` || ${insertedId} || `);
    return { expression, parameters };
  }

  /** A BOOLEAN value as a statement parameter: 1 or 0, which both databases store (SQLite binds no booleans). */
  boolean(value: boolean): number {
    return value ? 1 : 0;
  }

  /** Runs one INSERT and returns the id it generated: mysql2 reports it; SQLite says it with RETURNING. */
  async insert(manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> {
    if (this.mysql) return Number((await manager.query(sql, parameters)).insertId);
    const [row] = await manager.query(`${sql} RETURNING id`, parameters);
    return Number(row.id);
  }

  /**
   * Runs one UPDATE or DELETE and returns how many rows it changed, on `manager`'s transaction when
   * it has one (a plain query answers SQLite's last insert id instead of the count).
   */
  async changedRows(manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> {
    const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
    try {
      return (await runner.query(sql, parameters, true)).affected ?? 0;
    } finally {
      if (runner !== manager.queryRunner) await runner.release();
    }
  }
}
