import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { datetime, flag, id, integer, optionalDatetime, optionalText, text } from '../database/columns.js';
import { EVERY_ENVIRONMENT } from '../database/confined-statements.js';
import { type Row, Sql, type SqlRunner } from '../database/sql.js';
import type { Statement } from '../database/statement.js';
import { Environment } from '../environments/environment.js';

/** A row of webhook_endpoints, as the service uses it. */
export interface StoredEndpoint {
  /** Where it is: the events of its own environment only are sent to it, and its deliveries are of it. */
  readonly environment: Environment;
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
  'environment, id AS rowId, public_id AS id, url, events, description, secret, previous_secret AS previousSecret, ' +
  'previous_secret_until AS previousSecretUntil, enabled, disabled_reason AS disabledReason, created_at AS createdAt, created_by AS createdBy';
const INSERT =
  'INSERT INTO webhook_endpoints (environment, public_id, url, events, description, secret, enabled, created_at, created_by) ' +
  'VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)';
const SELECT_BY_PUBLIC_ID = `SELECT ${COLUMNS} FROM webhook_endpoints WHERE environment = ? AND public_id = ?`;
const SELECT_PAGE = `SELECT ${COLUMNS} FROM webhook_endpoints WHERE environment = ? AND id > ? ORDER BY webhook_endpoints.id LIMIT ?`;
const SELECT_ENABLED = `SELECT ${COLUMNS} FROM webhook_endpoints WHERE environment = ? AND enabled = 1`;
/** The deliverer's: every environment's enabled endpoints, each with its own (an event goes only to those of its environment). */
const SELECT_EVERY_ENABLED = `SELECT ${COLUMNS} FROM webhook_endpoints WHERE enabled = 1 ${EVERY_ENVIRONMENT}`;
const DELETE_BY_PUBLIC_ID = 'DELETE FROM webhook_endpoints WHERE environment = ? AND public_id = ?';
const SET_ENABLED = 'UPDATE webhook_endpoints SET enabled = ?, disabled_reason = ? WHERE environment = ? AND public_id = ?';
const DISABLE_BY_ROW = 'UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ? WHERE environment = ? AND id = ? AND enabled = 1';
const ROTATE_SECRET =
  'UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ? WHERE environment = ? AND public_id = ?';
const RECORD_SUCCESS = 'UPDATE webhook_endpoints SET last_success_at = ? WHERE environment = ? AND id = ?';
const SELECT_LAST_SUCCESS = 'SELECT last_success_at AS lastSuccessAt FROM webhook_endpoints WHERE environment = ? AND id = ?';

const readEndpoint = (row: Row): StoredEndpoint => ({
  environment: Environment.of(integer(row.environment)),
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

/**
 * The webhook_endpoints table, one written-out statement per question. What serves a request takes
 * the caller's Environment first and names it in every statement, so an endpoint of another
 * environment is never found (a 404, as one that never existed); the deliverer reads every
 * environment's enabled endpoints (everyEnabled) and writes each one back in its own.
 */
@Injectable()
export class WebhookEndpointsRepository {
  private readonly heldSql: string;

  constructor(private readonly sql: Sql) {
    // Differs by database: see SqlDialect.forUpdate.
    this.heldSql = `${SELECT_BY_PUBLIC_ID}${sql.dialect.forUpdate}`;
  }

  /** The endpoint as a write decides on it, held until that write commits (the write's transaction). */
  async held(environment: Environment, transaction: SqlRunner, id: string): Promise<StoredEndpoint | undefined> {
    const [endpoint] = await transaction.rows(this.heldSql, [environment.id, id], readEndpoint);
    return endpoint;
  }

  /** The statement that deletes the endpoint (its deliveries and their attempts go with it). */
  remove(environment: Environment, id: string): Statement {
    return { sql: DELETE_BY_PUBLIC_ID, parameters: [environment.id, id] };
  }

  /** The statement that enables or disables the endpoint, with why (null when enabled). */
  setEnabledStatement(environment: Environment, id: string, enabled: boolean, reason: string | null): Statement {
    return { sql: SET_ENABLED, parameters: [enabled, reason, environment.id, id] };
  }

  /** The statement that rolls the secret: the new one signs from now on, the old one beside it until `overlapUntil`. */
  rotateStatement(environment: Environment, id: string, secret: string, overlapUntil: Date): Statement {
    return { sql: ROTATE_SECRET, parameters: [overlapUntil, secret, environment.id, id] };
  }

  /** A new endpoint of `environment`, with its public id, and the statement that inserts it (Sql.write). */
  insert(environment: Environment, endpoint: NewEndpoint): { endpoint: MadeEndpoint; statement: Statement } {
    const id = `we_${randomBytes(12).toString('base64url')}`;
    const { url, events, description, secret, createdAt, createdBy } = endpoint;
    return {
      endpoint: {
        environment,
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
      statement: { sql: INSERT, parameters: [environment.id, id, url, events.join(' '), description, secret, createdAt, createdBy] },
    };
  }

  async find(environment: Environment, id: string): Promise<StoredEndpoint | undefined> {
    const [endpoint] = await this.sql.rows(SELECT_BY_PUBLIC_ID, [environment.id, id], readEndpoint);
    return endpoint;
  }

  page(environment: Environment, afterRowId: number, limit: number): Promise<StoredEndpoint[]> {
    return this.sql.rows(SELECT_PAGE, [environment.id, afterRowId, limit], readEndpoint);
  }

  /** The enabled endpoints of `environment`. */
  enabled(environment: Environment): Promise<StoredEndpoint[]> {
    return this.sql.rows(SELECT_ENABLED, [environment.id], readEndpoint);
  }

  /** The deliverer's: the enabled endpoints of every environment, each saying its own. */
  everyEnabled(): Promise<StoredEndpoint[]> {
    return this.sql.rows(SELECT_EVERY_ENABLED, [], readEndpoint);
  }

  /** Disables an endpoint the deliverer gave up on; false when it already was. */
  async disable(endpoint: StoredEndpoint, reason: string): Promise<boolean> {
    return (await this.sql.run(DISABLE_BY_ROW, [reason.slice(0, 255), endpoint.environment.id, endpoint.rowId])).affectedRows === 1;
  }

  async succeeded(endpoint: StoredEndpoint, at: Date): Promise<void> {
    await this.sql.run(RECORD_SUCCESS, [at, endpoint.environment.id, endpoint.rowId]);
  }

  async lastSuccessAt(endpoint: StoredEndpoint): Promise<Date | null> {
    const [lastSuccessAt] = await this.sql.rows(SELECT_LAST_SUCCESS, [endpoint.environment.id, endpoint.rowId], (row) =>
      optionalDatetime(row.lastSuccessAt),
    );
    return lastSuccessAt ?? null;
  }
}
