import { Column, Entity, Index } from 'typeorm';
import { COMPARED_TEXT, UNICODE_TEXT } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import { formatScopes, SCOPES } from './scopes.js';
import { EnvironmentColumn } from '../environments/environment-column.js';

@Entity({ name: 'api_keys' })
@Index('IDX_api_keys_environment_id', ['environment', 'id'])
@Index('UQ_api_keys_key_hash', ['keyHash'], { unique: true })
@Index('UQ_api_keys_rolled_from_id', ['rolledFromId'], { unique: true })
export class ApiKey extends NumericIdEntity {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  @Column({ type: 'varchar', length: 100, ...UNICODE_TEXT })
  name: string;

  @Column({ type: 'varchar', length: 16, ...COMPARED_TEXT })
  prefix: string;

  @Column({ name: 'key_hash', type: 'varchar', length: 64, ...COMPARED_TEXT })
  keyHash: string;

  /** Space-separated scopes (see scopes.ts). */
  @Column({ type: 'varchar', length: 255, default: formatScopes(SCOPES), ...COMPARED_TEXT })
  scopes: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'datetime', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'datetime', nullable: true })
  revokedAt: Date | null;

  /** When the key stops working; null: never. A roll sets it to the end of the overlap. */
  @Column({ name: 'expires_at', type: 'datetime', precision: 3, nullable: true })
  expiresAt: Date | null;

  /** The key this one replaced, when it was made by a roll; a key has one successor at most. */
  @Column({ name: 'rolled_from_id', type: 'bigint', nullable: true })
  rolledFromId: number | null;
}
