import { Column, Entity, Index } from 'typeorm';
import { COMPARED_TEXT, UNICODE_TEXT } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import { EnvironmentColumn } from '../environments/environment-column.js';

/**
 * An entry of the request log: a request a key made, as answered. Written in batches off the
 * request's path (RequestLogWriter), read by the key that made it, newest first (RequestLogRepository);
 * the key, the client's address and its User-Agent are for the operator's command only.
 */
@Entity({ name: 'request_log' })
@Index('IDX_request_log_environment_id', ['environment', 'id'])
@Index('IDX_request_log_key_time', ['keyId', 'createdAt', 'id'])
@Index('IDX_request_log_key_status', ['keyId', 'status', 'createdAt', 'id'])
@Index('IDX_request_log_key_status_class', ['keyId', 'statusClass', 'createdAt', 'id'])
@Index('IDX_request_log_key_operation', ['keyId', 'operation', 'createdAt', 'id'])
@Index('IDX_request_log_key_idempotency_key', ['keyId', 'idempotencyKey', 'createdAt', 'id'])
@Index('IDX_request_log_request', ['requestId', 'createdAt'])
@Index('IDX_request_log_created_at', ['createdAt'])
export class RequestLogEntry extends NumericIdEntity {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  /** Its X-Request-Id: the client's, when it sent a sane one, so not unique. */
  @Column({ name: 'request_id', type: 'varchar', length: 128, ...COMPARED_TEXT })
  requestId: string;

  @Column({ name: 'key_id', type: 'varchar', length: 64, ...COMPARED_TEXT })
  keyId: string;

  /** When the request arrived. */
  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ type: 'varchar', length: 16, ...COMPARED_TEXT })
  method: string;

  /** The target as sent, a query value kept only under the operation's own parameters, key-shaped text `[redacted]`. */
  @Column({ type: 'varchar', length: 2048, ...COMPARED_TEXT })
  path: string;

  /** The operationId of the route that took it; null for none (a 404 ROUTE_NOT_FOUND). */
  @Column({ type: 'varchar', length: 64, nullable: true, ...COMPARED_TEXT })
  operation: string | null;

  @Column({ type: 'int' })
  status: number;

  /** The first digit of the status, for the `4xx` filter. */
  @Column({ name: 'status_class', type: 'int' })
  statusClass: number;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs: number;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 255, nullable: true, ...COMPARED_TEXT })
  idempotencyKey: string | null;

  @Column({ type: 'boolean' })
  replayed: boolean;

  @Column({ name: 'error_code', type: 'varchar', length: 64, nullable: true, ...COMPARED_TEXT })
  errorCode: string | null;

  @Column({ name: 'error_message', type: 'varchar', length: 1024, nullable: true, ...UNICODE_TEXT })
  errorMessage: string | null;

  /** The requests it stands for: 1, or a key's rate-limited answers (429) in the minute from this one. */
  @Column({ type: 'int', default: 1 })
  count: number;

  @Column({ name: 'client_address', type: 'varchar', length: 64, ...COMPARED_TEXT })
  clientAddress: string;

  @Column({ name: 'user_agent', type: 'varchar', length: 255, nullable: true, ...UNICODE_TEXT })
  userAgent: string | null;
}
