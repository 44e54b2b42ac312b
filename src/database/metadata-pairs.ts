import type { Metadata } from '../validation/metadata.js';
import { rowsOf } from './sql-literal.js';
import type { SqlDialect } from './sql-dialect.js';
import type { InsertedId, Statement } from './statement.js';

/**
 * The table of an owner's metadata pairs (pet_metadata, order_metadata: its entity says the shape),
 * written in the owner's write, and the keyset page of owners holding one pair, read through its
 * (name, value, owner) index in owner order: the index seeks to the pair and past the cursor, and
 * the page stops after `limit` rows, however many owners there are.
 */
export class MetadataPairs {
  private readonly insertSql: string;
  private readonly removeSql: string;
  private readonly pageSql: string;
  private readonly pageWithStatusSql: string;

  /** `ownerColumns`: the owner's select list with each column of `o.` (Table.columnsOf('o')). */
  constructor(dialect: SqlDialect, owners: string, table: string, ownerId: string, ownerColumns: string) {
    this.insertSql = `INSERT INTO ${table} (${ownerId}, name, value) VALUES ?`;
    this.removeSql = `DELETE FROM ${table} WHERE ${ownerId} = ?`;
    // Joined in this order, from the pair's index, whatever the planner would guess.
    const from =
      `SELECT ${ownerColumns} FROM ${table} m${dialect.forceIndex(`IDX_${table}_pair`)} ${dialect.joinInOrder} ${owners} o ` +
      `ON o.id = m.${ownerId} WHERE m.name = ? AND m.value = ? AND m.${ownerId} > ?`;
    this.pageSql = `${from} ORDER BY m.${ownerId} LIMIT ?`;
    this.pageWithStatusSql = `${from} AND o.status = ? ORDER BY m.${ownerId} LIMIT ?`;
  }

  /** The insert of the owner's pairs, none when it has no metadata. */
  insert(owner: number | InsertedId, metadata: Metadata): Statement[] {
    const pairs = Object.entries(metadata);
    return pairs.length === 0 ? [] : [{ sql: this.insertSql, parameters: [rowsOf(pairs.map(([name, value]) => [owner, name, value]))] }];
  }

  /** The owner's pairs replaced by those of `metadata`. */
  replace(owner: number, metadata: Metadata): Statement[] {
    return [{ sql: this.removeSql, parameters: [owner] }, ...this.insert(owner, metadata)];
  }

  /** The statement and values of a page of owners holding `name` = `value`, after `afterId`, only those with `status` when given. */
  page(pair: readonly [string, string], status: string | undefined, afterId: number, limit: number): [string, unknown[]] {
    const [name, value] = pair;
    return status ? [this.pageWithStatusSql, [name, value, afterId, status, limit]] : [this.pageSql, [name, value, afterId, limit]];
  }
}
