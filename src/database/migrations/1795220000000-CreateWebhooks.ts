import { type MigrationInterface, type QueryRunner, Table, TableColumn } from 'typeorm';
import { idColumn, isMysql, unicodeText } from './portable-columns.js';

const ALL_SCOPES = 'pets:read pets:write store:read store:write webhooks:read webhooks:write';

/**
 * Events and their delivery to webhook endpoints. `events` is the outbox: a row is written in the
 * transaction of the write it tells of, so it exists exactly when that write committed. An event is
 * fanned out to the endpoints subscribed when it happened (`dispatched`), one `webhook_deliveries`
 * row per endpoint (unique: an event is never queued twice for one endpoint), and each try of a
 * delivery is kept in `webhook_attempts`.
 */
export class CreateWebhooks1795220000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const time = (name: string, isNullable = false) => ({ name, type: 'datetime', precision: mysql ? 3 : undefined, isNullable });
    const bigint = mysql ? 'bigint' : 'integer';
    await queryRunner.createTable(
      new Table({
        name: 'events',
        columns: [
          idColumn(queryRunner),
          { name: 'public_id', type: 'varchar', length: '40', isUnique: true },
          { name: 'type', type: 'varchar', length: '64' },
          time('created_at'),
          // The whole event as delivered, JSON: events are immutable.
          mysql ? { name: 'payload', type: 'mediumtext', charset: 'utf8mb4', collation: 'utf8mb4_bin' } : { name: 'payload', type: 'text' },
          { name: 'dispatched', type: 'boolean', default: 0 },
          // Set for an event meant for one endpoint only (a test event).
          { name: 'only_endpoint_id', type: bigint, isNullable: true },
        ],
        indices: [
          { name: 'IDX_events_dispatched', columnNames: ['dispatched', 'id'] },
          { name: 'IDX_events_type_id', columnNames: ['type', 'id'] },
          { name: 'IDX_events_created_at', columnNames: ['created_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_endpoints',
        columns: [
          idColumn(queryRunner),
          { name: 'public_id', type: 'varchar', length: '40', isUnique: true },
          { name: 'url', type: 'varchar', length: '2048' },
          // Space-separated event types, or `*`.
          { name: 'events', type: 'varchar', length: '1024' },
          unicodeText(queryRunner, { name: 'description', length: '255', isNullable: true }),
          { name: 'secret', type: 'varchar', length: '64' },
          { name: 'previous_secret', type: 'varchar', length: '64', isNullable: true },
          time('previous_secret_until', true),
          { name: 'enabled', type: 'boolean' },
          { name: 'disabled_reason', type: 'varchar', length: '255', isNullable: true },
          time('created_at'),
          time('last_success_at', true),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          idColumn(queryRunner),
          { name: 'event_id', type: bigint },
          { name: 'endpoint_id', type: bigint },
          // pending | delivered | failed
          { name: 'state', type: 'varchar', length: '16' },
          { name: 'attempts', type: 'int', default: 0 },
          time('next_attempt_at'),
          // A replica holds a claim while it tries; one that died leaves it to expire.
          time('claimed_until', true),
          { name: 'claim_token', type: 'varchar', length: '32', isNullable: true },
        ],
        uniques: [{ name: 'UQ_webhook_deliveries_event_endpoint', columnNames: ['event_id', 'endpoint_id'] }],
        indices: [
          { name: 'IDX_webhook_deliveries_due', columnNames: ['state', 'next_attempt_at'] },
          { name: 'IDX_webhook_deliveries_endpoint', columnNames: ['endpoint_id', 'state'] },
        ],
        foreignKeys: [
          {
            name: 'FK_webhook_deliveries_event',
            columnNames: ['event_id'],
            referencedTableName: 'events',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'FK_webhook_deliveries_endpoint',
            columnNames: ['endpoint_id'],
            referencedTableName: 'webhook_endpoints',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_attempts',
        columns: [
          idColumn(queryRunner),
          { name: 'delivery_id', type: bigint },
          time('attempted_at'),
          { name: 'status', type: 'int', isNullable: true },
          { name: 'duration_ms', type: 'int' },
          unicodeText(queryRunner, { name: 'error', length: '255', isNullable: true }),
          // The first KiB of the answer, as text.
          unicodeText(queryRunner, { name: 'response_excerpt', length: '1100', isNullable: true }),
        ],
        indices: [{ name: 'IDX_webhook_attempts_delivery', columnNames: ['delivery_id', 'id'] }],
        foreignKeys: [
          {
            name: 'FK_webhook_attempts_delivery',
            columnNames: ['delivery_id'],
            referencedTableName: 'webhook_deliveries',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    // Six scopes no longer fit the column; the quick-start key, made for trying everything, gets the new two.
    await this.scopesColumn(queryRunner, 255, ALL_SCOPES);
    await queryRunner.query(`UPDATE api_keys SET scopes = '${ALL_SCOPES}' WHERE name = 'quick-start'`);
  }

  /**
   * MySQL widens the column in place (TypeORM's changeColumn would drop and add it, losing every
   * key's scopes); SQLite keeps a varchar of any length, and TypeORM rebuilds its table with the rows.
   */
  private async scopesColumn(queryRunner: QueryRunner, length: number, scopes: string): Promise<void> {
    if (isMysql(queryRunner)) {
      await queryRunner.query(`ALTER TABLE api_keys MODIFY scopes varchar(${length}) NOT NULL DEFAULT '${scopes}'`);
    } else {
      const column = new TableColumn({ name: 'scopes', type: 'varchar', length: String(length), default: `'${scopes}'` });
      await queryRunner.changeColumn('api_keys', 'scopes', column);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("UPDATE api_keys SET scopes = REPLACE(REPLACE(scopes, ' webhooks:read', ''), ' webhooks:write', '')");
    await this.scopesColumn(queryRunner, 64, 'pets:read pets:write store:read store:write');
    await queryRunner.dropTable('webhook_attempts');
    await queryRunner.dropTable('webhook_deliveries');
    await queryRunner.dropTable('webhook_endpoints');
    await queryRunner.dropTable('events');
  }
}
