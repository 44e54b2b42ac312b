import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { loadAppConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../src/database/data-source-options.js';
import { AddApiKeyExpiry1795219700000 } from '../../src/database/migrations/1795219700000-AddApiKeyExpiry.js';
import { AddApiKeyScopes1795219600000 } from '../../src/database/migrations/1795219600000-AddApiKeyScopes.js';
import { OneSuccessorPerKey1795219800000 } from '../../src/database/migrations/1795219800000-OneSuccessorPerKey.js';
import { ApiKeyTimesInMilliseconds1795219900000 } from '../../src/database/migrations/1795219900000-ApiKeyTimesInMilliseconds.js';
import { CompleteMeansDelivered1795220300000 } from '../../src/database/migrations/1795220300000-CompleteMeansDelivered.js';
import { RequestLog1795220500000 } from '../../src/database/migrations/1795220500000-RequestLog.js';
import { StoredAnswersOfAnySize1795220600000 } from '../../src/database/migrations/1795220600000-StoredAnswersOfAnySize.js';
import { ExactComparedText1795220700000 } from '../../src/database/migrations/1795220700000-ExactComparedText.js';
import { isUniqueViolation } from '../../src/database/constraint-violations.js';
import { createTestDatabase, DATABASE_KINDS, LATIN1, type TestDatabase } from './support/test-database.js';

/** A key as the tool stored it before a migration, with only the columns every version has. */
const INSERT_OLDER_KEY = "INSERT INTO api_keys (name, prefix, key_hash, created_at) VALUES (?, 'psk_older', ?, '2026-01-01 00:00:00')";

/**
 * Each migration that changes a table holding data is undone by its revert, and brings the rows
 * written before it along: run them all, revert down to and through one, write a row the old way,
 * run them again.
 */
describe.each(DATABASE_KINDS)('migrations on %s', (kind) => {
  let database: TestDatabase;
  let dataSource: DataSource;
  beforeEach(async () => {
    // latin1: what a revert leaves to the database's default shows as latin1 (1.5.0's columns below).
    database = await createTestDatabase(kind, LATIN1());
    dataSource = await new DataSource(buildDataSourceOptions(loadAppConfig({ DATABASE_URL: database.url }).database)).initialize();
    await dataSource.runMigrations();
  });
  afterEach(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const columns = async () => (await dataSource.createQueryRunner().getTable('api_keys'))!.columns.map((column) => column.name);
  /** Reverts the migrations after `migration`, then it. */
  const revertThrough = async (migration: new () => object) => {
    const applied = async () => ((await dataSource.query('SELECT name FROM migrations')) as { name: string }[]).map((row) => row.name);
    while ((await applied()).includes(migration.name)) await dataSource.undoLastMigration();
  };

  it('AddApiKeyScopes is undone by a revert, and gives the keys made before it all four scopes', async () => {
    expect(await columns()).toContain('scopes');
    await revertThrough(AddApiKeyScopes1795219600000);
    expect(await columns()).not.toContain('scopes');
    expect(await columns()).toContain('key_hash');
    await dataSource.query(INSERT_OLDER_KEY, ['older', 'a'.repeat(64)]);
    await dataSource.runMigrations();
    expect(await dataSource.query("SELECT name, scopes FROM api_keys WHERE name = 'older'")).toEqual([
      { name: 'older', scopes: 'pets:read pets:write store:read store:write' },
    ]);
  });

  it('AddApiKeyExpiry is undone by a revert, and leaves the keys made before it without an expiry', async () => {
    expect(await columns()).toEqual(expect.arrayContaining(['expires_at', 'rolled_from_id']));
    await revertThrough(AddApiKeyExpiry1795219700000);
    expect(await columns()).not.toContain('expires_at');
    expect(await columns()).not.toContain('rolled_from_id');
    await dataSource.query(INSERT_OLDER_KEY, ['older', 'b'.repeat(64)]);
    await dataSource.runMigrations();
    expect(
      await dataSource.query("SELECT name, expires_at AS expiresAt, rolled_from_id AS rolledFromId FROM api_keys WHERE name = 'older'"),
    ).toEqual([{ name: 'older', expiresAt: null, rolledFromId: null }]);
  });

  it('OneSuccessorPerKey keeps the first of two racing successors linked, then refuses a second one', async () => {
    await revertThrough(OneSuccessorPerKey1795219800000);
    await dataSource.query(INSERT_OLDER_KEY, ['rolled twice', 'c'.repeat(64)]);
    const [{ id }] = await dataSource.query("SELECT id FROM api_keys WHERE name = 'rolled twice'");
    for (const hash of ['d', 'e', 'f']) {
      await dataSource.query(
        "INSERT INTO api_keys (name, prefix, key_hash, created_at, rolled_from_id) VALUES ('successor', 'psk_older', ?, '2026-01-02 00:00:00', ?)",
        [hash.repeat(64), id],
      );
    }
    await dataSource.runMigrations();
    const successors = await dataSource.query(
      "SELECT id, rolled_from_id AS rolledFromId FROM api_keys WHERE name = 'successor' ORDER BY id",
    );
    expect(successors.map((row: { rolledFromId: unknown }) => row.rolledFromId)).toEqual([id, null, null]);
    const another = dataSource.query(
      "INSERT INTO api_keys (name, prefix, key_hash, created_at, rolled_from_id) VALUES ('successor', 'psk_older', ?, '2026-01-03 00:00:00', ?)",
      ['0'.repeat(64), id],
    );
    expect(isUniqueViolation(await another.catch((error: unknown) => error))).toBe(true);
    await revertThrough(OneSuccessorPerKey1795219800000);
    expect((await dataSource.createQueryRunner().getTable('api_keys'))!.indices.map((index) => index.name)).not.toContain(
      'UQ_api_keys_rolled_from_id',
    );
  });

  it('ApiKeyTimesInMilliseconds keeps a key’s expiry to the millisecond, and is undone by a revert', async () => {
    const stored = async (hash: string) => {
      await dataSource.query(
        "INSERT INTO api_keys (name, prefix, key_hash, created_at, expires_at) VALUES ('timed', 'psk_timed', ?, '2026-01-01 00:00:00.250', '2027-01-01 00:00:45.750')",
        [hash],
      );
      const [row] = await dataSource.query('SELECT created_at AS createdAt, expires_at AS expiresAt FROM api_keys WHERE key_hash = ?', [
        hash,
      ]);
      return [row.createdAt, row.expiresAt].map((value) =>
        new Date(value instanceof Date ? value : `${String(value).replace(' ', 'T')}Z`).getUTCMilliseconds(),
      );
    };
    expect(await stored('1'.repeat(64))).toEqual([250, 750]);
    await revertThrough(ApiKeyTimesInMilliseconds1795219900000);
    // MySQL's DATETIME again: fractions dropped (MariaDB) or rounded (MySQL); SQLite's text keeps them.
    if (kind === 'mysql') expect((await stored('2'.repeat(64))).map((ms) => ms % 1000 === 0)).toEqual([true, true]);
    await dataSource.runMigrations();
    expect(await stored('3'.repeat(64))).toEqual([250, 750]);
  });

  it('CompleteMeansDelivered makes an order complete exactly when it is delivered, as 1.4.0 did not', async () => {
    await revertThrough(CompleteMeansDelivered1795220300000);
    await dataSource.query("INSERT INTO pets (name, category_id, status) VALUES ('Ordered', 1, 'available')");
    for (const [status, complete] of [
      ['cancelled', 1],
      ['placed', 1],
      ['approved', 0],
      ['delivered', 0],
      ['delivered', 1],
    ] as const)
      await dataSource.query('INSERT INTO orders (pet_id, quantity, status, complete) VALUES (1, 1, ?, ?)', [status, complete]);
    await dataSource.runMigrations();
    const rows: { status: string; complete: unknown }[] = await dataSource.query('SELECT status, complete FROM orders ORDER BY id');
    expect(rows.map(({ status, complete }) => [status, Number(complete)])).toEqual([
      ['cancelled', 0],
      ['placed', 0],
      ['approved', 0],
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });

  it('RequestLog gives requests:read to the keys that held every scope, and to none that held fewer; a revert takes it back', async () => {
    await revertThrough(RequestLog1795220500000);
    const six = 'pets:read pets:write store:read store:write webhooks:read webhooks:write';
    await dataSource.query(INSERT_OLDER_KEY, ['everything', 'c'.repeat(64)]);
    await dataSource.query("UPDATE api_keys SET scopes = ? WHERE name = 'everything'", [six]);
    await dataSource.query(INSERT_OLDER_KEY, ['reader', 'd'.repeat(64)]);
    await dataSource.query("UPDATE api_keys SET scopes = 'pets:read' WHERE name = 'reader'");
    await dataSource.runMigrations();
    const scopes = async () => dataSource.query("SELECT name, scopes FROM api_keys WHERE name IN ('everything', 'reader') ORDER BY name");
    expect(await scopes()).toEqual([
      // And Sandboxes (1.6.0), after it, the sandboxes scopes.
      { name: 'everything', scopes: `${six} requests:read sandboxes:read sandboxes:write` },
      { name: 'reader', scopes: 'pets:read' },
    ]);
    await revertThrough(RequestLog1795220500000);
    expect(await scopes()).toEqual([
      { name: 'everything', scopes: six },
      { name: 'reader', scopes: 'pets:read' },
    ]);
  });

  it('ExactComparedText brings the rows stored before it along, then tells a trailing space apart; a revert makes the columns 1.5.0 had', async () => {
    const made = async () =>
      kind === 'mysql'
        ? dataSource.query(
            "SELECT CONCAT(TABLE_NAME, '.', COLUMN_NAME) AS name, CHARACTER_SET_NAME AS charset, COLLATION_NAME AS collation, " +
              'COLUMN_DEFAULT AS byDefault FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ' +
              "AND CONCAT(TABLE_NAME, '.', COLUMN_NAME) IN ('pet_metadata.value', 'pets.status', 'api_keys.scopes') ORDER BY name",
          )
        : [];
    const asMade = await made();
    await revertThrough(ExactComparedText1795220700000);
    await dataSource.query("INSERT INTO pets (name, category_id, status) VALUES ('Tagged', 1, 'available')");
    await dataSource.query("INSERT INTO pet_metadata (pet_id, name, value) VALUES (1, 'erp', 'A-1 ')");
    const holding = async (value: string) =>
      (await dataSource.query('SELECT pet_id FROM pet_metadata WHERE name = ? AND value = ?', ['erp', value])).length;
    // 1.5.0's utf8mb4_bin pads; SQLite never did.
    expect(await holding('A-1')).toBe(kind === 'mysql' ? 1 : 0);
    const before = await made();
    await dataSource.runMigrations();
    expect([await holding('A-1'), await holding('A-1 ')]).toEqual([0, 1]);
    expect(await made()).toEqual(asMade);
    await dataSource.query(INSERT_OLDER_KEY, ['after', 'e'.repeat(64)]);
    expect(await dataSource.query("SELECT scopes FROM api_keys WHERE name = 'after'")).toEqual([
      { scopes: 'pets:read pets:write store:read store:write webhooks:read webhooks:write requests:read sandboxes:read sandboxes:write' },
    ]);
    await revertThrough(ExactComparedText1795220700000);
    expect(await made()).toEqual(before);
    if (kind === 'mysql')
      expect(before.map(({ name, charset, collation }: Record<string, string>) => `${name} ${charset} ${collation}`).sort()).toEqual([
        'api_keys.scopes latin1 latin1_swedish_ci',
        'pet_metadata.value utf8mb4 utf8mb4_bin',
        'pets.status latin1 latin1_swedish_ci',
      ]);
  });

  it('StoredAnswersOfAnySize stores an answer over 64 KB exactly; a revert removes only the records TEXT cannot hold', async () => {
    const insert =
      'INSERT INTO idempotency_records (key_id, idempotency_key, request_hash, state, response_status, response_body, created_at, expires_at) ' +
      "VALUES ('k', ?, ?, 'done', 201, ?, '2026-11-28 00:00:00', '2026-11-29 00:00:00')";
    const stored = async () =>
      (await dataSource.query('SELECT idempotency_key AS k, response_body AS body FROM idempotency_records ORDER BY idempotency_key')) as {
        k: string;
        body: string;
      }[];
    // About 120 KB of UTF-8, as an answer with metadata at its maximum.
    const large = JSON.stringify({ id: 1, metadata: { note: '🐕'.repeat(30_000) } });
    await dataSource.query(insert, ['large', 'a'.repeat(64), large]);
    await dataSource.query(insert, ['small', 'b'.repeat(64), '{"id":2}']);
    expect(await stored()).toEqual([
      { k: 'large', body: large },
      { k: 'small', body: '{"id":2}' },
    ]);
    await revertThrough(StoredAnswersOfAnySize1795220600000);
    expect((await stored()).map(({ k }) => k)).toEqual(kind === 'mysql' ? ['small'] : ['large', 'small']);
    await dataSource.runMigrations();
    await dataSource.query(insert, ['large again', 'c'.repeat(64), large]);
    expect((await stored()).find(({ k }) => k === 'large again')?.body).toBe(large);
  });
});
