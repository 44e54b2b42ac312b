import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Sql, type Statement } from '../database/sql.js';
import { SqlDialect } from '../database/sql-dialect.js';
import type { OrderStatus } from './order-status.js';

/** A row of the orders table. */
export interface StoredOrder {
  readonly id: number;
  readonly petId: number;
  readonly quantity: number;
  readonly status: OrderStatus;
  readonly shipDate: Date | null;
  readonly complete: boolean;
}

const COLUMNS = 'id, pet_id AS petId, quantity, status, ship_date AS shipDate, complete';
const PAGE = `SELECT ${COLUMNS} FROM orders WHERE id > ? ORDER BY id LIMIT ?`;
const BY_ID = `SELECT ${COLUMNS} FROM orders WHERE id = ?`;
const INSERT = 'INSERT INTO orders (pet_id, quantity, status, ship_date, complete) VALUES (?, ?, ?, ?, ?)';

/**
 * The orders table, one written-out statement per question, run by Sql on TypeORM's connection. The
 * date and the flag go through SqlDialect both ways: SQLite keeps them as text and 0/1.
 */
@Injectable()
export class OrdersRepository {
  private readonly dialect: SqlDialect;
  /** The one statement that differs by database: see SqlDialect.forceIndex. */
  private readonly pageWithStatusSql: string;
  private readonly toStored: (row: Record<string, unknown>) => StoredOrder;
  private readonly toColumns: (order: Omit<StoredOrder, 'id'>) => unknown[];

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly sql: Sql,
  ) {
    this.dialect = new SqlDialect(dataSource);
    this.pageWithStatusSql = `SELECT ${COLUMNS} FROM orders${this.dialect.forceIndex('IDX_orders_status_id')} WHERE status = ? AND id > ? ORDER BY id LIMIT ?`;
    const { dialect } = this;
    this.toStored = (row) => ({
      id: Number(row.id),
      petId: Number(row.petId),
      quantity: Number(row.quantity),
      status: row.status as OrderStatus,
      shipDate: row.shipDate === null ? null : dialect.readDatetime(row.shipDate),
      complete: Boolean(Number(row.complete)),
    });
    this.toColumns = (order) => [
      order.petId,
      order.quantity,
      order.status,
      order.shipDate === null ? null : dialect.datetime(order.shipDate),
      dialect.boolean(order.complete),
    ];
  }

  /** Up to `limit` orders after `afterId` (0: from the start), only those with `status` when given. */
  async page(status: OrderStatus | undefined, afterId: number, limit: number): Promise<StoredOrder[]> {
    const rows = status
      ? await this.sql.rows<Record<string, unknown>>(this.pageWithStatusSql, [status, afterId, limit])
      : await this.sql.rows<Record<string, unknown>>(PAGE, [afterId, limit]);
    return rows.map(this.toStored);
  }

  async get(id: number): Promise<StoredOrder | undefined> {
    const [row] = await this.sql.rows<Record<string, unknown>>(BY_ID, [id]);
    return row && this.toStored(row);
  }

  /**
   * The insert of an order, to run in the transaction that records what else it makes (Sql.write);
   * it fails on the foreign key to pets when its pet does not exist (isForeignKeyViolation).
   */
  insert(order: Omit<StoredOrder, 'id'>): Statement {
    return { sql: INSERT, parameters: this.toColumns(order) };
  }
}
