import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import { MetadataPairs } from '../database/metadata-pairs.js';
import { Sql } from '../database/sql.js';
import type { Environment } from '../environments/environment.js';
import type { InsertedId, Statement } from '../database/statement.js';
import type { WriteTransaction } from '../database/unit-of-work.js';
import { ORDER } from './dto/order-fields.js';
import { Order } from './order.entity.js';
import type { OrderStatus } from './order-status.js';

/** What the service reads of an order: every column the API shows (ORDER), as the entity declares it. */
const STORED = ORDER.shown;
/** A row of the orders table. */
export type StoredOrder = Readonly<Pick<Order, (typeof STORED)[number]>>;
/** What placing an order writes of it, and what a change of it writes. */
const INSERTED = ORDER.written;
const CHANGED = ORDER.changed;

/**
 * The orders table, one written-out statement per question, run by Sql; their column lists and row
 * reader come from the Order entity (Table). Every statement is confined to the environment its
 * caller names (the first parameter of each method): an order of another environment is, to it, an
 * order that does not exist.
 */
@Injectable()
export class OrdersRepository {
  private readonly read;
  private readonly inserted;
  private readonly changed;
  private readonly pairs: MetadataPairs;
  /** Both differ by database: see SqlDialect.forceIndex. */
  private readonly pageSql: string;
  private readonly pageWithStatusSql: string;
  private readonly byIdSql: string;
  /** Differs by database: see SqlDialect.forUpdate. */
  private readonly stateSql: string;
  private readonly insertSql: string;
  private readonly changeSql: string;

  constructor(private readonly sql: Sql) {
    const orders = sql.table(Order, STORED);
    const { dialect } = sql;
    this.pairs = new MetadataPairs(dialect, 'orders', 'order_metadata', 'order_id', orders.columnsOf('o'));
    this.read = orders.read;
    // Each page seeks its environment's part of an index that begins with it (PetsRepository's pages).
    this.pageSql = `SELECT ${orders.columns} FROM orders${dialect.forceIndex('IDX_orders_environment_id')} WHERE environment = ? AND id > ? ORDER BY id LIMIT ?`;
    this.pageWithStatusSql = `SELECT ${orders.columns} FROM orders${dialect.forceIndex('IDX_orders_environment_status_id')} WHERE environment = ? AND status = ? AND id > ? ORDER BY id LIMIT ?`;
    this.byIdSql = `SELECT ${orders.columns} FROM orders WHERE id = ? AND environment = ?`;
    this.stateSql = `${this.byIdSql}${dialect.forUpdate}`;
    const insert = sql.table(Order, [...INSERTED, 'environment']).insert([...INSERTED, 'environment']);
    const set = orders.set(CHANGED);
    this.insertSql = insert.sql;
    this.inserted = insert.values;
    this.changed = set.values;
    // Each change still counts the version up: an instance of 1.4.0 beside this one in a rolling
    // upgrade makes its changes only to the version it read.
    this.changeSql = `UPDATE orders SET ${set.sql}, version = version + 1 WHERE id = ? AND environment = ?`;
  }

  /**
   * Up to `limit` of the environment's orders after `afterId` (0: from the start), only those with
   * `status` when given, and only those whose metadata holds `pair` (name, value) when given.
   */
  page(
    environment: Environment,
    status: OrderStatus | undefined,
    pair: readonly [string, string] | undefined,
    afterId: number,
    limit: number,
  ): Promise<StoredOrder[]> {
    if (pair) return this.sql.rows(...this.pairs.page(environment, pair, status, afterId, limit), this.read);
    return status
      ? this.sql.rows(this.pageWithStatusSql, [environment.id, status, afterId, limit], this.read)
      : this.sql.rows(this.pageSql, [environment.id, afterId, limit], this.read);
  }

  async get(environment: Environment, id: number): Promise<StoredOrder | undefined> {
    const [order] = await this.sql.rows(this.byIdSql, [id, environment.id], this.read);
    return order;
  }

  /** The environment's order as a write decides on it, held until that write commits when the write's transaction holds what it reads. */
  async state(transaction: WriteTransaction, environment: Environment, id: number): Promise<StoredOrder | undefined> {
    // Held: the read by id with SqlDialect.forUpdate; a change's first look (UnitOfWork.change) holds nothing.
    const [order] = await transaction.rows(transaction.holds ? this.stateSql : this.byIdSql, [id, environment.id], this.read);
    return order;
  }

  /** The change of the order from `before` to `after` (its row, its metadata pairs when they changed): for the write that moves its pet and records its events. */
  change(environment: Environment, before: StoredOrder, after: StoredOrder): Statement[] {
    const row = { sql: this.changeSql, parameters: [...this.changed(after), after.id, environment.id] };
    return isDeepStrictEqual(before.metadata, after.metadata) ? [row] : [row, ...this.pairs.replace(environment, after.id, after.metadata)];
  }

  /**
   * The insert of an order in the environment, whose id is `id`, for the write that records what
   * else it makes; it fails on the foreign key to pets when its pet does not exist (isForeignKeyViolation).
   */
  insert(environment: Environment, order: Omit<StoredOrder, 'id'>, id: InsertedId): Statement[] {
    return [
      { sql: this.insertSql, parameters: this.inserted({ ...order, environment: environment.id }), inserts: id },
      ...this.pairs.insert(environment, id, order.metadata),
    ];
  }
}
