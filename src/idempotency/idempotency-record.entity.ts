import { Column, Entity, Index } from 'typeorm';
import { COMPARED_TEXT, EXACT_TEXT } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import { EnvironmentColumn } from '../environments/environment-column.js';

export type IdempotencyState = 'in_flight' | 'done';

/** The first response to a request sent with an Idempotency-Key, kept for 24 hours. */
@Entity({ name: 'idempotency_records' })
@Index('IDX_idempotency_records_environment_id', ['environment', 'id'])
@Index('UQ_idempotency_records_key', ['keyId', 'idempotencyKey'], { unique: true })
@Index('IDX_idempotency_records_expires_at', ['expiresAt'])
export class IdempotencyRecord extends NumericIdEntity {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  @Column({ name: 'key_id', type: 'varchar', length: 64, ...COMPARED_TEXT })
  keyId: string;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 255, ...COMPARED_TEXT })
  idempotencyKey: string;

  @Column({ name: 'request_hash', type: 'varchar', length: 64, ...COMPARED_TEXT })
  requestHash: string;

  @Column({ type: 'varchar', length: 16, ...COMPARED_TEXT })
  state: IdempotencyState;

  @Column({ name: 'response_status', type: 'int', nullable: true })
  responseStatus: number | null;

  /** Any answer the service gives: MEDIUMTEXT on MySQL, whose TEXT stops at 64 KB (an answer with metadata at its maximum is about 100 KB). */
  @Column({ name: 'response_body', type: 'mediumtext', nullable: true, ...EXACT_TEXT })
  responseBody: string | null;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'datetime' })
  expiresAt: Date;
}
