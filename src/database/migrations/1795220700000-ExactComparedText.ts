import type { MigrationInterface, QueryRunner } from 'typeorm';
import { exactCollation, isMysql } from './portable-columns.js';

/** The scopes a key made without a choice holds, as 1.5.0 left the column's default. */
const ALL_SCOPES = 'pets:read pets:write store:read store:write webhooks:read webhooks:write requests:read';

/** A text column as the earlier migrations made it on MySQL: its type and the rest of its definition. */
interface TextColumn {
  readonly name: string;
  readonly type: string;
  readonly rest: string;
  /** utf8mb4_bin before this migration (ExactClientText, Metadata, RequestLog, WebhookEndpointMakers); else the database's default character set. */
  readonly wasBinary?: true;
}

const column = (name: string, type: string, rest = 'NOT NULL', wasBinary?: true): TextColumn => ({ name, type, rest, wasBinary });

/**
 * Every text column on MySQL but the labels people read (names, descriptions, messages: already
 * utf8mb4) and the JSON documents (utf8mb4_bin, never compared; idempotency_records.response_body is
 * 1795220600000's). Each table is rebuilt once.
 */
const TABLES: Record<string, readonly TextColumn[]> = {
  pets: [column('status', 'varchar(16)')],
  orders: [column('status', 'varchar(16)')],
  pet_metadata: [column('name', 'varchar(40)', 'NOT NULL', true), column('value', 'varchar(500)', 'NOT NULL', true)],
  order_metadata: [column('name', 'varchar(40)', 'NOT NULL', true), column('value', 'varchar(500)', 'NOT NULL', true)],
  api_keys: [
    column('prefix', 'varchar(16)'),
    column('key_hash', 'varchar(64)'),
    column('scopes', 'varchar(255)', `NOT NULL DEFAULT '${ALL_SCOPES}'`),
  ],
  idempotency_records: [
    column('key_id', 'varchar(64)'),
    column('idempotency_key', 'varchar(255)', 'NOT NULL', true),
    column('request_hash', 'varchar(64)'),
    column('state', 'varchar(16)'),
  ],
  events: [column('public_id', 'varchar(40)', 'NOT NULL', true), column('type', 'varchar(64)')],
  webhook_endpoints: [
    column('public_id', 'varchar(40)', 'NOT NULL', true),
    column('url', 'varchar(2048)'),
    column('events', 'varchar(1024)'),
    column('secret', 'varchar(64)'),
    column('previous_secret', 'varchar(64)', 'NULL'),
    column('disabled_reason', 'varchar(255)', 'NULL'),
    column('created_by', 'varchar(64)', 'NULL', true),
  ],
  webhook_deliveries: [column('state', 'varchar(16)'), column('claim_token', 'varchar(32)', 'NULL')],
  request_log: [
    column('request_id', 'varchar(128)', 'NOT NULL', true),
    column('key_id', 'varchar(64)', 'NOT NULL', true),
    column('method', 'varchar(16)'),
    column('path', 'varchar(2048)', 'NOT NULL', true),
    column('operation', 'varchar(64)', 'NULL'),
    column('idempotency_key', 'varchar(255)', 'NULL', true),
    column('error_code', 'varchar(64)', 'NULL'),
    column('client_address', 'varchar(64)'),
  ],
};

/**
 * On MySQL, text compared as SQLite compares it (issue 56): utf8mb4_bin pads, so `A-1` found the
 * pet whose value is `A-1 `, and the unique index took `pad-1 ` for the Idempotency-Key `pad-1`.
 * Every column above becomes utf8mb4 (whatever the database's default: latin1 could not hold
 * what it is sent) with the server's binary NO PAD collation (exactCollation), so that `=`, the
 * indexes and the unique keys tell `A-1` from `A-1 ` and `a` from `A`, and still seek. SQLite's
 * text is Unicode and compared exactly already.
 */
export class ExactComparedText1795220700000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    const exact = `CHARACTER SET utf8mb4 COLLATE ${await exactCollation(queryRunner)}`;
    for (const [table, columns] of Object.entries(TABLES)) {
      await queryRunner.query(
        `ALTER TABLE ${table} ${columns.map(({ name, type, rest }) => `MODIFY ${name} ${type} ${exact} ${rest}`).join(', ')}`,
      );
    }
  }

  /** Back to utf8mb4_bin where the columns had it, the database's default character set elsewhere. */
  async down(queryRunner: QueryRunner): Promise<void> {
    if (!isMysql(queryRunner)) return;
    for (const [table, columns] of Object.entries(TABLES).reverse()) {
      const modify = columns.map(
        ({ name, type, rest, wasBinary }) =>
          `MODIFY ${name} ${type}${wasBinary ? ' CHARACTER SET utf8mb4 COLLATE utf8mb4_bin' : ''} ${rest}`,
      );
      await queryRunner.query(`ALTER TABLE ${table} ${modify.join(', ')}`);
    }
  }
}
