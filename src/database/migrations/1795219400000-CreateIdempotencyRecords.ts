import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { idColumn } from './portable-columns.js';

export class CreateIdempotencyRecords1795219400000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_records',
        columns: [
          idColumn(queryRunner),
          // The API key the record belongs to (ApiKeyPrincipal.keyId): keys never see each other's.
          { name: 'key_id', type: 'varchar', length: '64' },
          // Printable ASCII only (checked on the way in), so no character set question arises.
          { name: 'idempotency_key', type: 'varchar', length: '255' },
          // SHA-256 of method, path and body: "the same request".
          { name: 'request_hash', type: 'varchar', length: '64' },
          { name: 'state', type: 'varchar', length: '16' },
          { name: 'response_status', type: 'int', isNullable: true },
          { name: 'response_body', type: 'text', isNullable: true },
          { name: 'created_at', type: 'datetime' },
          { name: 'expires_at', type: 'datetime' },
        ],
        indices: [
          { name: 'UQ_idempotency_records_key', columnNames: ['key_id', 'idempotency_key'], isUnique: true },
          { name: 'IDX_idempotency_records_expires_at', columnNames: ['expires_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_records');
  }
}
