import { Injectable } from '@nestjs/common';
import { flag, id, integer, optionalDatetime, text } from '../database/columns.js';
import { type Row, Sql } from '../database/sql.js';
import type { Statement } from '../database/statement.js';
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
const STATE = `SELECT ${COLUMNS}, version FROM orders WHERE id = ?`;
const CHANGE = 'UPDATE orders SET status = ?, ship_date = ?, complete = ?, version = version + 1 WHERE id = ? AND version = ?';

const readOrder = (row: Row): StoredOrder => ({
  id: id(row.id),
  petId: id(row.petId),
  quantity: integer(row.quantity),
  status: text(row.status) as OrderStatus,
  shipDate: optionalDatetime(row.shipDate),
  complete: flag(row.complete),
});

/** An order as a change reads it: the row, and the version the change is made to. */
export interface OrderState {
  readonly order: StoredOrder;
  readonly version: number;
}

const readOrderState = (row: Row): OrderState => ({ order: readOrder(row), version: integer(row.version) });

/** The orders table, one written-out statement per question, run by Sql. */
@Injectable()
export class OrdersRepository {
  /** The one statement that differs by database: see SqlDialect.forceIndex. */
  private readonly pageWithStatusSql: string;

  constructor(private readonly sql: Sql) {
    this.pageWithStatusSql = `SELECT ${COLUMNS} FROM orders${sql.dialect.forceIndex('IDX_orders_status_id')} WHERE status = ? AND id > ? ORDER BY id LIMIT ?`;
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

  /** The order as a change reads it. */
  async state(id: number): Promise<OrderState | undefined> {
    const [state] = await this.sql.rows(STATE, [id], readOrderState);
    return state;
  }

  /** The change of the order, as read, to `order`: to run in the transaction that moves its pet and records its events. */
  change({ order: { id }, version }: OrderState, { status, shipDate, complete }: StoredOrder): Statement {
    return { sql: CHANGE, parameters: [status, shipDate, complete, id, version], toRowAsRead: true };
  }

  /**
   * The insert of an order, to run in the transaction that records what else it makes (Sql.write);
   * it fails on the foreign key to pets when its pet does not exist (isForeignKeyViolation).
   */
  insert({ petId, quantity, status, shipDate, complete }: Omit<StoredOrder, 'id'>): Statement {
    return { sql: INSERT, parameters: [petId, quantity, status, shipDate, complete] };
  }
}
