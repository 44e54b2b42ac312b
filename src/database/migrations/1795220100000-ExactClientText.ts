import type { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from './portable-columns.js';

/**
 * On MySQL, the columns a client's text is stored in or compared with, made utf8mb4 and compared
 * byte for byte, whatever the database's default character set (latin1, GBK): a stored answer holds
 * any name the API took (emoji too; latin1 refused it with a 500), an Idempotency-Key `abc` is not
 * `ABC`, and an event or endpoint id that is no id finds nothing instead of failing on a mix of
 * collations. SQLite's text is Unicode and compared exactly already.
 */
export class ExactClientText1795220100000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    const exact = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';
    await queryRunner.query(
      `ALTER TABLE idempotency_records MODIFY idempotency_key VARCHAR(255) ${exact} NOT NULL, MODIFY response_body TEXT ${exact} NULL`,
    );
    await queryRunner.query(`ALTER TABLE events MODIFY public_id VARCHAR(40) ${exact} NOT NULL`);
    await queryRunner.query(`ALTER TABLE webhook_endpoints MODIFY public_id VARCHAR(40) ${exact} NOT NULL`);
  }

  /** Back to the database's default character set, as the tables were made. */
  async down(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    await queryRunner.query('ALTER TABLE webhook_endpoints MODIFY public_id VARCHAR(40) NOT NULL');
    await queryRunner.query('ALTER TABLE events MODIFY public_id VARCHAR(40) NOT NULL');
    await queryRunner.query('ALTER TABLE idempotency_records MODIFY idempotency_key VARCHAR(255) NOT NULL, MODIFY response_body TEXT NULL');
  }
}
