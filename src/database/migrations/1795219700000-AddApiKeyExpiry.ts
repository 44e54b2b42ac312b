import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { isMysql } from './portable-columns.js';

/** A key may expire; a rolled key names the key it replaced. Existing keys keep no expiry. */
export class AddApiKeyExpiry1795219700000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('api_keys', [
      new TableColumn({ name: 'expires_at', type: 'datetime', isNullable: true }),
      new TableColumn({ name: 'rolled_from_id', type: isMysql(queryRunner) ? 'bigint' : 'integer', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('api_keys', ['rolled_from_id', 'expires_at']);
  }
}
