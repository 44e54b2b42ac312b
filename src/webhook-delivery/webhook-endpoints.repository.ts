import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { datetime, flag, id, optionalDatetime, optionalText, text } from '../database/columns.js';
import { type Row, Sql, type SqlRunner } from '../database/sql.js';
import type { Statement } from '../database/statement.js';

/** A row of webhook_endpoints, as the service uses it. */
export interface StoredEndpoint {
  readonly rowId: number;
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  readonly secret: string;
  readonly previousSecret: string | null;
  readonly previousSecretUntil: Date | null;
  readonly enabled: boolean;
  readonly disabledReason: string | null;
  readonly createdAt: Date;
  /** The principal id of the key that made it; null for one made before 1.5.1 (not recorded). */
  readonly createdBy: string | null;
}

/** An endpoint as made, before its insert gives it a row. */
export type MadeEndpoint = Omit<StoredEndpoint, 'rowId'>;

export interface NewEndpoint {
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  readonly secret: string;
  readonly createdAt: Date;
  readonly createdBy: string;
}

const COLUMNS =
  'id AS rowId, public_id AS id, url, events, description, secret, previous_secret AS previousSecret, ' +
  'previous_secret_until AS previousSecretUntil, enabled, disabled_reason AS disabledReason, created_at AS createdAt, created_by AS createdBy';
const INSERT =
  'INSERT INTO webhook_endpoints (public_id, url, events, description, secret, enabled, created_at, created_by) VALUES (?, ?, ?, ?, ?, 1, ?, ?)';
const SELECT_BY_PUBLIC_ID = `SELECT ${COLUMNS} FROM webhook_endpoints WHERE public_id = ?`;
const SELECT_PAGE = `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id > ? ORDER BY id LIMIT ?`;
const SELECT_ENABLED = `SELECT ${COLUMNS} FROM webhook_endpoints WHERE enabled = 1`;
const DELETE_BY_PUBLIC_ID = 'DELETE FROM webhook_endpoints WHERE public_id = ?';
const SET_ENABLED = 'UPDATE webhook_endpoints SET enabled = ?, disabled_reason = ? WHERE public_id = ?';
const DISABLE_BY_ROW = 'UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ? WHERE id = ? AND enabled = 1';
const ROTATE_SECRET = 'UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ? WHERE public_id = ?';
const RECORD_SUCCESS = 'UPDATE webhook_endpoints SET last_success_at = ? WHERE id = ?';
const SELECT_LAST_SUCCESS = 'SELECT last_success_at AS lastSuccessAt FROM webhook_endpoints WHERE id = ?';

const readEndpoint = (row: Row): StoredEndpoint => ({
  rowId: id(row.rowId),
  id: text(row.id),
  url: text(row.url),
  events: text(row.events).split(' '),
  description: optionalText(row.description),
  secret: text(row.secret),
  previousSecret: optionalText(row.previousSecret),
  previousSecretUntil: optionalDatetime(row.previousSecretUntil),
  enabled: flag(row.enabled),
  disabledReason: optionalText(row.disabledReason),
  createdAt: datetime(row.createdAt),
  createdBy: optionalText(row.createdBy),
});

/** The webhook_endpoints table, one written-out statement per question. */
@Injectable()
export class WebhookEndpointsRepository {
  private readonly heldSql: string;

  constructor(private readonly sql: Sql) {
    // Differs by database: see SqlDialect.forUpdate.
    this.heldSql = `${SELECT_BY_PUBLIC_ID}${sql.dialect.forUpdate}`;
  }

  /** The endpoint as a write decides on it, held until that write commits (the write's transaction). */
  async held(transaction: SqlRunner, id: string): Promise<StoredEndpoint | undefined> {
    const [endpoint] = await transaction.rows(this.heldSql, [id], readEndpoint);
    return endpoint;
  }

  /** The statement that deletes the endpoint (its deliveries and their attempts go with it). */
  remove(id: string): Statement {
    return { sql: DELETE_BY_PUBLIC_ID, parameters: [id] };
  }

  /** The statement that enables or disables the endpoint, with why (null when enabled). */
  setEnabledStatement(id: string, enabled: boolean, reason: string | null): Statement {
    return { sql: SET_ENABLED, parameters: [enabled, reason, id] };
  }

  /** The statement that rolls the secret: the new one signs from now on, the old one beside it until `overlapUntil`. */
  rotateStatement(id: string, secret: string, overlapUntil: Date): Statement {
    return { sql: ROTATE_SECRET, parameters: [overlapUntil, secret, id] };
  }

  /** A new endpoint, with its public id, and the statement that inserts it (Sql.write). */
  insert(endpoint: NewEndpoint): { endpoint: MadeEndpoint; statement: Statement } {
    const id = `we_${randomBytes(12).toString('base64url')}`;
    const { url, events, description, secret, createdAt, createdBy } = endpoint;
    return {
      endpoint: {
        id,
        url,
        events,
        description,
        secret,
        previousSecret: null,
        previousSecretUntil: null,
        enabled: true,
        disabledReason: null,
        createdAt,
        createdBy,
      },
      statement: { sql: INSERT, parameters: [id, url, events.join(' '), description, secret, createdAt, createdBy] },
    };
  }

  async find(id: string): Promise<StoredEndpoint | undefined> {
    const [endpoint] = await this.sql.rows(SELECT_BY_PUBLIC_ID, [id], readEndpoint);
    return endpoint;
  }

  page(afterRowId: number, limit: number): Promise<StoredEndpoint[]> {
    return this.sql.rows(SELECT_PAGE, [afterRowId, limit], readEndpoint);
  }

  enabled(): Promise<StoredEndpoint[]> {
    return this.sql.rows(SELECT_ENABLED, [], readEndpoint);
  }

  /** Disables an endpoint the deliverer gave up on; false when it already was. */
  async disable(rowId: number, reason: string): Promise<boolean> {
    return (await this.sql.run(DISABLE_BY_ROW, [reason.slice(0, 255), rowId])).affectedRows === 1;
  }

  async succeeded(rowId: number, at: Date): Promise<void> {
    await this.sql.run(RECORD_SUCCESS, [at, rowId]);
  }

  async lastSuccessAt(rowId: number): Promise<Date | null> {
    const [lastSuccessAt] = await this.sql.rows(SELECT_LAST_SUCCESS, [rowId], (row) => optionalDatetime(row.lastSuccessAt));
    return lastSuccessAt ?? null;
  }
}
