import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { apiKeyScopesDefault, idColumn, isMysql } from './portable-columns.js';

const SIX_SCOPES = 'pets:read pets:write store:read store:write webhooks:read webhooks:write';
const ALL_SCOPES = `${SIX_SCOPES} requests:read`;

/**
 * The request log (1.5.0): each answered request a key made that changed something or failed (and,
 * when asked, its successful reads), written in batches off the request's path and read by the key
 * that made it, newest first; indexed for that and for each filter (status, its class, operation,
 * Idempotency-Key), each on the key and the time; on the request id; on the time alone for the purge.
 * A key that holds every scope, and so meant to do anything, gets the new `requests:read` too.
 */
export class RequestLog1795220500000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const exact = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {};
    const unicode = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' } : {};
    const byKey = (name: string, columns: string[]) => ({
      name: `IDX_request_log_${name}`,
      columnNames: ['key_id', ...columns, 'created_at', 'id'],
    });
    await queryRunner.createTable(
      new Table({
        name: 'request_log',
        columns: [
          idColumn(queryRunner),
          { name: 'request_id', type: 'varchar', length: '128', ...exact },
          { name: 'key_id', type: 'varchar', length: '64', ...exact },
          { name: 'created_at', type: 'datetime', precision: mysql ? 3 : undefined },
          { name: 'method', type: 'varchar', length: '16' },
          { name: 'path', type: 'varchar', length: '2048', ...exact },
          { name: 'operation', type: 'varchar', length: '64', isNullable: true },
          { name: 'status', type: 'int' },
          { name: 'status_class', type: 'int' },
          { name: 'duration_ms', type: 'int' },
          { name: 'idempotency_key', type: 'varchar', length: '255', isNullable: true, ...exact },
          { name: 'replayed', type: 'boolean' },
          { name: 'error_code', type: 'varchar', length: '64', isNullable: true },
          { name: 'error_message', type: 'varchar', length: '1024', isNullable: true, ...unicode },
          { name: 'client_address', type: 'varchar', length: '64' },
          { name: 'user_agent', type: 'varchar', length: '255', isNullable: true, ...unicode },
        ],
        indices: [
          byKey('key_time', []),
          byKey('key_status', ['status']),
          byKey('key_status_class', ['status_class']),
          byKey('key_operation', ['operation']),
          byKey('key_idempotency_key', ['idempotency_key']),
          // A request id is as good as unique: the key is checked on the few rows it finds.
          { name: 'IDX_request_log_request', columnNames: ['request_id', 'created_at'] },
          { name: 'IDX_request_log_created_at', columnNames: ['created_at'] },
        ],
      }),
    );
    await apiKeyScopesDefault(queryRunner, ALL_SCOPES);
    await queryRunner.query(`UPDATE api_keys SET scopes = '${ALL_SCOPES}' WHERE scopes = '${SIX_SCOPES}'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE api_keys SET scopes = '${SIX_SCOPES}' WHERE scopes = '${ALL_SCOPES}'`);
    await queryRunner.query("UPDATE api_keys SET scopes = TRIM(REPLACE(scopes, 'requests:read', ''))");
    await apiKeyScopesDefault(queryRunner, SIX_SCOPES);
    await queryRunner.dropTable('request_log');
  }
}
