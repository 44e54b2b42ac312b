import { Injectable } from '@nestjs/common';
import { EVERY_ENVIRONMENT } from '../database/confined-statements.js';
import { Sql } from '../database/sql.js';

/**
 * A read of one of the service's tables, not `SELECT 1`: a Galera node that lost its quorum still
 * answers `SELECT 1`, and refuses every read of data (WSREP_NOT_READY). Whose row it reads does not
 * matter (it answers none of it), so it reads in every environment.
 */
const READ_DATA = `SELECT 1 AS readable FROM pets ${EVERY_ENVIRONMENT} LIMIT 1`;

/** Whether the service's data can be read: the readiness check's one statement. */
@Injectable()
export class DatabaseReadinessRepository {
  constructor(private readonly sql: Sql) {}

  async read(): Promise<void> {
    await this.sql.rows(READ_DATA, [], () => undefined);
  }
}
