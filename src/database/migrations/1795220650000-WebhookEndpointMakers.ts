import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { isMysql } from './portable-columns.js';

/**
 * An endpoint records the key that made it (its principal id, as the request log keeps it), so that
 * it receives only the events that key may read now (1.5.1). Endpoints made before keep none: their
 * maker is not known, and they receive what they subscribed to.
 */
export class WebhookEndpointMakers1795220650000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const exact = isMysql(queryRunner) ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
    await queryRunner.addColumn(
      'webhook_endpoints',
      new TableColumn({ name: 'created_by', type: 'varchar', length: '64', isNullable: true, ...exact }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('webhook_endpoints', 'created_by');
  }
}
