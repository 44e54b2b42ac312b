import { Injectable } from '@nestjs/common';
import { flag, id, integer, optionalDatetime, text } from '../database/columns.js';
import { type Row, Sql, type SqlRunner } from '../database/sql.js';
import type { InsertedId, Statement } from '../database/statement.js';
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
// Each change still counts the version up: an instance of 1.4.0 beside this one in a rolling
// upgrade makes its changes only to the version it read.
const CHANGE = 'UPDATE orders SET status = ?, ship_date = ?, complete = ?, version = version + 1 WHERE id = ?';

const readOrder = (row: Row): StoredOrder => ({
  id: id(row.id),
  petId: id(row.petId),
  quantity: integer(row.quantity),
  status: text(row.status) as OrderStatus,
  shipDate: optionalDatetime(row.shipDate),
  complete: flag(row.complete),
});

/** The orders table, one written-out statement per question, run by Sql. */
@Injectable()
export class OrdersRepository {
  /** The statements that differ by database: see SqlDialect.forceIndex and forUpdate. */
  private readonly pageWithStatusSql: string;
  private readonly stateSql: string;

  constructor(private readonly sql: Sql) {
    this.pageWithStatusSql = `SELECT ${COLUMNS} FROM orders${sql.dialect.forceIndex('IDX_orders_status_id')} WHERE status = ? AND id > ? ORDER BY id LIMIT ?`;
    this.stateSql = `SELECT ${COLUMNS} FROM orders WHERE id = ?${sql.dialect.forUpdate}`;
  }

  /** Up to `limit` orders after `afterId` (0: from the start), only those with `status` when given. */
  page(status: OrderStatus | undefined, afterId: number, limit: number): Promise<StoredOrder[]> {
    return status
      ? this.sql.rows(this.pageWithStatusSql, [status, afterId, limit], readOrder)
      : this.sql.rows(PAGE, [afterId, limit], readOrder);
  }

  async get(id: number): Promise<StoredOrder | undefined> {
    const [order] = await this.sql.rows(BY_ID, [id], readOrder);
    return order;
  }

  /** The order as a write decides on it, held until that write commits (the write's transaction). */
  async state(transaction: SqlRunner, id: number): Promise<StoredOrder | undefined> {
    const [order] = await transaction.rows(this.stateSql, [id], readOrder);
    return order;
  }

  /** The change of the order to `order`: for the write that moves its pet and records its events. */
  change({ id, status, shipDate, complete }: StoredOrder): Statement {
    return { sql: CHANGE, parameters: [status, shipDate, complete, id] };
  }

  /**
   * The insert of an order, whose id is `id`, for the write that records what else it makes; it
   * fails on the foreign key to pets when its pet does not exist (isForeignKeyViolation).
   */
  insert({ petId, quantity, status, shipDate, complete }: Omit<StoredOrder, 'id'>, id: InsertedId): Statement {
    return { sql: INSERT, parameters: [petId, quantity, status, shipDate, complete], inserts: id };
  }
}
