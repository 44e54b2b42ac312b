import type { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './portable-columns.js';

/**
 * A request log entry may stand for several requests (1.5.1): a key's rate-limited answers (429)
 * are counted in one entry a minute, so that no key grows the log faster than its limit lets it
 * work. Every entry before stood for one. Plain ALTER TABLE, the same on both databases: TypeORM's
 * addColumn would rebuild the SQLite table, every row of the log copied.
 */
export class RequestLogCount1795220800000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const type = isMysql(queryRunner) ? 'int' : 'integer';
    await queryRunner.query(`ALTER TABLE request_log ADD COLUMN count ${type} NOT NULL DEFAULT 1`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE request_log DROP COLUMN count');
  }
}
