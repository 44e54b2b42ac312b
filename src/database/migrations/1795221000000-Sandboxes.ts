import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';
import { apiKeyScopesDefault, exactCollation, idColumn, isMysql } from './portable-columns.js';

const SEVEN_SCOPES = 'pets:read pets:write store:read store:write webhooks:read webhooks:write requests:read';
const ALL_SCOPES = `${SEVEN_SCOPES} sandboxes:read sandboxes:write`;

/**
 * Each table's indexes that change: those a listing reads by environment first (its keyset pages
 * stay as fast at a million rows of other environments), and (environment, id) for each table's
 * removal in small batches when a sandbox goes.
 */
const ENVIRONMENT_TABLES: readonly {
  table: string;
  drop?: readonly [name: string, columns: string];
  add: Record<string, readonly string[]>;
}[] = [
  {
    table: 'pets',
    drop: ['IDX_pets_status_id', 'status, id'],
    add: { IDX_pets_environment_id: ['id'], IDX_pets_environment_status_id: ['status', 'id'] },
  },
  {
    table: 'pet_metadata',
    drop: ['IDX_pet_metadata_pair', 'name, value, pet_id'],
    add: { IDX_pet_metadata_environment_pair: ['name', 'value', 'pet_id'] },
  },
  {
    table: 'orders',
    drop: ['IDX_orders_status_id', 'status, id'],
    add: { IDX_orders_environment_id: ['id'], IDX_orders_environment_status_id: ['status', 'id'] },
  },
  {
    table: 'order_metadata',
    drop: ['IDX_order_metadata_pair', 'name, value, order_id'],
    add: { IDX_order_metadata_environment_pair: ['name', 'value', 'order_id'] },
  },
  {
    table: 'events',
    drop: ['IDX_events_type_id', 'type, id'],
    add: { IDX_events_environment_id: ['id'], IDX_events_environment_type_id: ['type', 'id'] },
  },
  { table: 'webhook_endpoints', add: { IDX_webhook_endpoints_environment_id: ['id'] } },
  { table: 'webhook_deliveries', add: { IDX_webhook_deliveries_environment_id: ['id'] } },
  { table: 'webhook_attempts', add: { IDX_webhook_attempts_environment_id: ['id'] } },
  { table: 'idempotency_records', add: { IDX_idempotency_records_environment_id: ['id'] } },
  { table: 'request_log', add: { IDX_request_log_environment_id: ['id'] } },
  { table: 'api_keys', add: { IDX_api_keys_environment_id: ['id'] } },
];

/**
 * Sandboxes (1.6.0): every row of an integrator's data belongs to live (`environment` 0, every row
 * so far) or to one sandbox (its id in the new sandboxes table), and the indexes listings read lead
 * with it. Plain ALTER TABLE, one per table on MySQL: TypeORM's addColumn would rebuild each SQLite
 * table, every row copied. A key that holds every scope gets the new sandboxes scopes too.
 */
export class Sandboxes1795221000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const compared = mysql ? { charset: 'utf8mb4', collation: await exactCollation(queryRunner) } : {};
    const unicode = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' } : {};
    await queryRunner.createTable(
      new Table({
        name: 'sandboxes',
        columns: [
          idColumn(queryRunner),
          { name: 'public_id', type: 'varchar', length: '40', isUnique: true, ...compared },
          { name: 'name', type: 'varchar', length: '100', ...unicode },
          { name: 'created_at', type: 'datetime', precision: mysql ? 3 : undefined },
          { name: 'expires_at', type: 'datetime', precision: mysql ? 3 : undefined },
          { name: 'deleted_at', type: 'datetime', precision: mysql ? 3 : undefined, isNullable: true },
        ],
        indices: [{ name: 'IDX_sandboxes_deleted_at_expires_at', columnNames: ['deleted_at', 'expires_at'] }],
      }),
    );
    // First: on SQLite it rebuilds api_keys, which is simplest before the table grows a column and an index.
    await apiKeyScopesDefault(queryRunner, ALL_SCOPES);
    for (const { table, drop, add } of ENVIRONMENT_TABLES) {
      const indexes = Object.entries(add).map(([name, columns]) => ({ name, columns: ['environment', ...columns].join(', ') }));
      if (mysql) {
        const changes = [
          'ADD COLUMN environment bigint NOT NULL DEFAULT 0',
          ...(drop ? [`DROP INDEX ${drop[0]}`] : []),
          ...indexes.map(({ name, columns }) => `ADD INDEX ${name} (${columns})`),
        ];
        await queryRunner.query(`ALTER TABLE ${table} ${changes.join(', ')}`);
      } else {
        await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN environment bigint NOT NULL DEFAULT 0`);
        if (drop) await queryRunner.query(`DROP INDEX ${drop[0]}`);
        for (const { name, columns } of indexes) await queryRunner.query(`CREATE INDEX ${name} ON ${table} (${columns})`);
      }
    }
    await queryRunner.query(`UPDATE api_keys SET scopes = '${ALL_SCOPES}' WHERE scopes = '${SEVEN_SCOPES}'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    await queryRunner.query(`UPDATE api_keys SET scopes = '${SEVEN_SCOPES}' WHERE scopes = '${ALL_SCOPES}'`);
    await queryRunner.query("UPDATE api_keys SET scopes = TRIM(REPLACE(REPLACE(scopes, 'sandboxes:write', ''), 'sandboxes:read', ''))");
    await apiKeyScopesDefault(queryRunner, SEVEN_SCOPES);
    // A sandbox's rows go with it: what is left is live's, as before 1.6.0.
    for (const { table, drop, add } of [...ENVIRONMENT_TABLES].reverse()) {
      await queryRunner.query(`DELETE FROM ${table} WHERE environment <> 0`);
      for (const name of Object.keys(add)) await queryRunner.query(mysql ? `DROP INDEX ${name} ON ${table}` : `DROP INDEX ${name}`);
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN environment`);
      if (drop) await queryRunner.query(`CREATE INDEX ${drop[0]} ON ${table} (${drop[1]})`);
    }
    await queryRunner.dropTable('sandboxes');
  }
}
