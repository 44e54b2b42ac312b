import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlDialect } from '../database/sql-dialect.js';
import { INSERTED_ID, type Statement } from '../database/sql.js';

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
}

export interface NewEndpoint {
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  readonly secret: string;
  readonly createdAt: Date;
}

const COLUMNS =
  'id AS rowId, public_id AS id, url, events, description, secret, previous_secret AS previousSecret, ' +
  'previous_secret_until AS previousSecretUntil, enabled, disabled_reason AS disabledReason, created_at AS createdAt';
const INSERT =
  'INSERT INTO webhook_endpoints (public_id, url, events, description, secret, enabled, created_at) VALUES (?, ?, ?, ?, ?, 1, ?)';
const SELECT_BY_PUBLIC_ID = `SELECT ${COLUMNS} FROM webhook_endpoints WHERE public_id = ?`;
const SELECT_PAGE = `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id > ? ORDER BY id LIMIT ?`;
const SELECT_ENABLED = `SELECT ${COLUMNS} FROM webhook_endpoints WHERE enabled = 1`;
const DELETE_BY_PUBLIC_ID = 'DELETE FROM webhook_endpoints WHERE public_id = ?';
const SET_ENABLED = 'UPDATE webhook_endpoints SET enabled = ?, disabled_reason = ? WHERE public_id = ?';
const DISABLE_BY_ROW = 'UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ? WHERE id = ? AND enabled = 1';
const ROTATE_SECRET = 'UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ? WHERE public_id = ?';
const RECORD_SUCCESS = 'UPDATE webhook_endpoints SET last_success_at = ? WHERE id = ?';
const SELECT_LAST_SUCCESS = 'SELECT last_success_at AS lastSuccessAt FROM webhook_endpoints WHERE id = ?';

/** The webhook_endpoints table, one written-out statement per question. */
@Injectable()
export class WebhookEndpointsRepository {
  private readonly dialect: SqlDialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = new SqlDialect(dataSource);
  }

  /**
   * A new endpoint, with its public id, and the statement that inserts it (Sql.write); its row id is
   * INSERTED_ID until then.
   */
  insert(endpoint: NewEndpoint): { endpoint: StoredEndpoint; statement: Statement } {
    const id = `we_${randomBytes(12).toString('base64url')}`;
    const { url, events, description, secret, createdAt } = endpoint;
    return {
      endpoint: {
        rowId: INSERTED_ID,
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
      },
      statement: { sql: INSERT, parameters: [id, url, events.join(' '), description, secret, this.dialect.datetime(createdAt)] },
    };
  }

  async find(id: string): Promise<StoredEndpoint | undefined> {
    const [row] = await this.dataSource.query(SELECT_BY_PUBLIC_ID, [id]);
    return row && this.read(row);
  }

  async page(afterRowId: number, limit: number): Promise<StoredEndpoint[]> {
    return (await this.dataSource.query(SELECT_PAGE, [afterRowId, limit])).map((row: Record<string, unknown>) => this.read(row));
  }

  async enabled(): Promise<StoredEndpoint[]> {
    return (await this.dataSource.query(SELECT_ENABLED)).map((row: Record<string, unknown>) => this.read(row));
  }

  /** Whether it was there to delete; its deliveries and their attempts go with it. */
  async delete(id: string): Promise<boolean> {
    return (await this.dialect.changedRows(this.dataSource.manager, DELETE_BY_PUBLIC_ID, [id])) === 1;
  }

  async setEnabled(id: string, enabled: boolean, reason: string | null): Promise<boolean> {
    return (await this.dialect.changedRows(this.dataSource.manager, SET_ENABLED, [this.dialect.boolean(enabled), reason, id])) === 1;
  }

  /** Disables an endpoint the deliverer gave up on; false when it already was. */
  async disable(rowId: number, reason: string): Promise<boolean> {
    return (await this.dialect.changedRows(this.dataSource.manager, DISABLE_BY_ROW, [reason.slice(0, 255), rowId])) === 1;
  }

  /** The new secret signs from now on; the one it replaces keeps signing beside it until `overlapUntil`. */
  async rotate(id: string, secret: string, overlapUntil: Date): Promise<boolean> {
    return (
      (await this.dialect.changedRows(this.dataSource.manager, ROTATE_SECRET, [this.dialect.datetime(overlapUntil), secret, id])) === 1
    );
  }

  async succeeded(rowId: number, at: Date): Promise<void> {
    await this.dataSource.query(RECORD_SUCCESS, [this.dialect.datetime(at), rowId]);
  }

  async lastSuccessAt(rowId: number): Promise<Date | null> {
    const [row] = await this.dataSource.query(SELECT_LAST_SUCCESS, [rowId]);
    return row?.lastSuccessAt ? this.dialect.readDatetime(row.lastSuccessAt) : null;
  }

  private read(row: Record<string, unknown>): StoredEndpoint {
    return {
      rowId: Number(row.rowId),
      id: String(row.id),
      url: String(row.url),
      events: String(row.events).split(' '),
      description: (row.description as string | null) ?? null,
      secret: String(row.secret),
      previousSecret: (row.previousSecret as string | null) ?? null,
      previousSecretUntil: row.previousSecretUntil ? this.dialect.readDatetime(row.previousSecretUntil) : null,
      enabled: Boolean(Number(row.enabled)),
      disabledReason: (row.disabledReason as string | null) ?? null,
      createdAt: this.dialect.readDatetime(row.createdAt),
    };
  }
}
