import type { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './portable-columns.js';

const EXACT = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';

/**
 * On MySQL, a keyed request's stored answer of any size the service gives: MEDIUMTEXT (16 MB), as
 * TEXT stops at 64 KB and a pet or an order with its metadata at the maximum answers about 100 KB
 * (a keyed change of one was a 500, and both SDKs send a key with every change). SQLite's TEXT has
 * no such bound.
 */
export class StoredAnswersOfAnySize1795220600000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    await queryRunner.query(`ALTER TABLE idempotency_records MODIFY response_body MEDIUMTEXT ${EXACT} NULL`);
  }

  /**
   * Back to TEXT. An answer over 64 KB no longer fits, and the version reverted to could never have
   * stored one: its record goes, and a retry of its key runs again, as it did under that version.
   */
  async down(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    await queryRunner.query('DELETE FROM idempotency_records WHERE LENGTH(response_body) > 65535');
    await queryRunner.query(`ALTER TABLE idempotency_records MODIFY response_body TEXT ${EXACT} NULL`);
  }
}
