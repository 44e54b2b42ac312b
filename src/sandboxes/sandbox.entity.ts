import { Column, Entity, Index, Unique } from 'typeorm';
import { COMPARED_TEXT, uniqueColumnName, UNICODE_TEXT } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';

/**
 * A sandbox: an environment of its own (its id is the `environment` of each of its rows), made and
 * removed through the API. Deleting one marks it (`deleted_at`); its rows, then this one, are removed
 * in the background (SandboxRemover), as are an expired one's.
 */
@Entity({ name: 'sandboxes' })
@Unique(uniqueColumnName('sandboxes', 'public_id'), ['publicId'])
@Index('IDX_sandboxes_deleted_at_expires_at', ['deletedAt', 'expiresAt'])
export class Sandbox extends NumericIdEntity {
  /** `sbx_…`, the id the API shows. */
  @Column({ name: 'public_id', type: 'varchar', length: 40, ...COMPARED_TEXT })
  publicId: string;

  @Column({ type: 'varchar', length: 100, ...UNICODE_TEXT })
  name: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  /** When a DELETE asked for its removal; null while it is in use. */
  @Column({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt: Date | null;
}
