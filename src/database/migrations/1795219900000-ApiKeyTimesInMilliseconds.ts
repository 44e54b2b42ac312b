import type { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './portable-columns.js';

/**
 * A key's creation and expiry to the millisecond on MySQL, whose DATETIME drops fractions (MariaDB
 * truncates, MySQL rounds): `--expires-in 45s` is 45 s, not 44 to 45. SQLite's text holds them already.
 */
export class ApiKeyTimesInMilliseconds1795219900000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    if (isMysql(queryRunner))
      await queryRunner.query('ALTER TABLE api_keys MODIFY created_at DATETIME(3) NOT NULL, MODIFY expires_at DATETIME(3) NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (isMysql(queryRunner))
      await queryRunner.query('ALTER TABLE api_keys MODIFY created_at DATETIME NOT NULL, MODIFY expires_at DATETIME NULL');
  }
}
