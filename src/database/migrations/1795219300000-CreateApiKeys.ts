import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn, unicodeText } from './portable-columns.js';

export class CreateApiKeys1795219300000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          idColumn(queryRunner),
          unicodeText(queryRunner, { name: 'name', length: '100' }),
          // Not secret: the first characters of the key, so people can tell keys apart.
          { name: 'prefix', type: 'varchar', length: '16' },
          // SHA-256 of the key, hex. The key itself is never stored.
          { name: 'key_hash', type: 'varchar', length: '64' },
          { name: 'created_at', type: 'datetime' },
          { name: 'last_used_at', type: 'datetime', isNullable: true },
          { name: 'revoked_at', type: 'datetime', isNullable: true },
        ],
        indices: [{ name: 'UQ_api_keys_key_hash', columnNames: ['key_hash'], isUnique: true }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_keys');
  }
}
