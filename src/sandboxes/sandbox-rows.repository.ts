import { Injectable } from '@nestjs/common';
import { integer } from '../database/columns.js';
import { Sql } from '../database/sql.js';
import type { Environment } from '../environments/environment.js';

/**
 * Every table that holds rows of an environment, in the order a sandbox's rows are removed: each
 * before the tables it refers to (a delivery's attempts before it, an order before its pet), so no
 * delete cascades into more rows than its batch, and none is refused by a foreign key. The API keys
 * go last but one: the sandbox's own row, then, is all that is left.
 */
export const SANDBOX_TABLES = [
  'webhook_attempts',
  'webhook_deliveries',
  'events',
  'webhook_endpoints',
  'order_metadata',
  'orders',
  'pet_metadata',
  'pets',
  'idempotency_records',
  'request_log',
  'api_keys',
] as const;
export type SandboxTable = (typeof SANDBOX_TABLES)[number];

/**
 * The rows of a sandbox across every table, for its removal: a small batch at a time, each a
 * statement of its own (no transaction holds a lock past it), through the index each table has on
 * (environment, id). Every statement names its environment: the sandbox's, given by the remover
 * from the sandboxes table, never live's.
 */
@Injectable()
export class SandboxRowsRepository {
  private readonly deleteSome: ReadonlyMap<SandboxTable, string>;
  private readonly countOf: ReadonlyMap<SandboxTable, string>;

  constructor(private readonly sql: Sql) {
    this.deleteSome = new Map(SANDBOX_TABLES.map((table) => [table, sql.dialect.deleteSomeOfEnvironment(table)]));
    this.countOf = new Map(SANDBOX_TABLES.map((table) => [table, `SELECT COUNT(*) AS count FROM ${table} WHERE environment = ?`]));
  }

  /** Deletes up to `limit` rows of `table` in `environment`; answers how many went. */
  async deleteSomeOf(table: SandboxTable, environment: Environment, limit: number): Promise<number> {
    refuseLive(environment);
    return (await this.sql.run(this.deleteSome.get(table)!, [environment.id, limit])).affectedRows;
  }

  /** How many rows `environment` holds in each table (the operator's list). */
  async count(environment: Environment): Promise<Record<SandboxTable, number>> {
    const counts = {} as Record<SandboxTable, number>;
    for (const table of SANDBOX_TABLES) {
      [counts[table]] = await this.sql.rows(this.countOf.get(table)!, [environment.id], (row) => integer(row.count));
    }
    return counts;
  }
}

/** Nothing removes live's rows: a remover handed live by mistake stops here, whatever its caller. */
function refuseLive(environment: Environment): void {
  if (environment.livemode) throw new Error('the live environment is never removed');
}
