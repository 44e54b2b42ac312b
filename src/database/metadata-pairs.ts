import type { Environment } from '../environments/environment.js';
import type { Metadata } from '../validation/metadata.js';
import { rowsOf } from './sql-literal.js';
import type { SqlDialect } from './sql-dialect.js';
import type { InsertedId, Statement } from './statement.js';

/**
 * The table of an owner's metadata pairs (pet_metadata, order_metadata: its entity says the shape),
 * written in the owner's write, in the owner's environment, and the keyset page of owners holding
 * one pair, read through its (environment, name, value, owner) index in owner order: the index seeks
 * to the environment's pair and past the cursor, and the page stops after `limit` rows, however many
 * owners there are, in this environment or any other.
 */
export class MetadataPairs {
  private readonly insertSql: string;
  private readonly removeSql: string;
  private readonly pageSql: string;
  private readonly pageWithStatusSql: string;

  /** `ownerColumns`: the owner's select list with each column of `o.` (Table.columnsOf('o')). */
  constructor(dialect: SqlDialect, owners: string, table: string, ownerId: string, ownerColumns: string) {
    this.insertSql = `INSERT INTO ${table} (environment, ${ownerId}, name, value) VALUES ?`;
    this.removeSql = `DELETE FROM ${table} WHERE ${ownerId} = ? AND environment = ?`;
    // Joined in this order, from the pair's index, whatever the planner would guess; to the owner by
    // its whole primary key where that is (environment, id) (pets on MySQL).
    const from =
      `SELECT ${ownerColumns} FROM ${table} m${dialect.forceIndex(`IDX_${table}_environment_pair`)} ${dialect.joinInOrder} ${owners} o ` +
      `ON o.environment = m.environment AND o.id = m.${ownerId} WHERE m.environment = ? AND m.name = ? AND m.value = ? AND m.${ownerId} > ?`;
    this.pageSql = `${from} ORDER BY m.${ownerId} LIMIT ?`;
    this.pageWithStatusSql = `${from} AND o.status = ? ORDER BY m.${ownerId} LIMIT ?`;
  }

  /** The insert of the owner's pairs, in its environment; none when it has no metadata. */
  insert(environment: Environment, owner: number | InsertedId, metadata: Metadata): Statement[] {
    const pairs = Object.entries(metadata);
    return pairs.length === 0
      ? []
      : [{ sql: this.insertSql, parameters: [rowsOf(pairs.map(([name, value]) => [environment.id, owner, name, value]))] }];
  }

  /** The owner's pairs replaced by those of `metadata`. */
  replace(environment: Environment, owner: number, metadata: Metadata): Statement[] {
    return [{ sql: this.removeSql, parameters: [owner, environment.id] }, ...this.insert(environment, owner, metadata)];
  }

  /** The statement and values of a page of the environment's owners holding `name` = `value`, after `afterId`, only those with `status` when given. */
  page(
    environment: Environment,
    pair: readonly [string, string],
    status: string | undefined,
    afterId: number,
    limit: number,
  ): [string, unknown[]] {
    const [name, value] = pair;
    return status
      ? [this.pageWithStatusSql, [environment.id, name, value, afterId, status, limit]]
      : [this.pageSql, [environment.id, name, value, afterId, limit]];
  }
}
