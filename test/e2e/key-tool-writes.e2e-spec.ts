import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { loadAppConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../src/database/data-source-options.js';
import { datetime, id, optionalDatetime, optionalId } from '../../src/database/columns.js';
import { Sql } from '../../src/database/sql.js';
import { runApiKeyCli } from './support/service-process.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

/** What a key's row holds of its times and links, as stored. */
interface KeyRow {
  id: number;
  createdAt: Date;
  expiresAt: Date | null;
  rolledFromId: number | null;
}

/**
 * What the key tool stores and what it refuses: a time the database cannot hold, or one that is no
 * RFC 3339 time, is a usage error that stores nothing; `--expires-in` counts from the database's
 * clock as the key is stored; two rolls of one key at once make one successor, never two.
 */
describe.each(DATABASE_KINDS)('what the key tool writes on %s', (kind) => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let sql: Sql;
  const cli = (...args: string[]) => runApiKeyCli(args, { DATABASE_URL: database.url });
  const createKey = async (...args: string[]) => {
    const result = await cli('create', ...args);
    expect(result.code).toBe(0);
    return Number(/Created API key (\d+)/.exec(result.stderr)![1]);
  };
  const rows = (): Promise<KeyRow[]> =>
    sql.rows(
      'SELECT id, created_at AS createdAt, expires_at AS expiresAt, rolled_from_id AS rolledFromId FROM api_keys ORDER BY id',
      [],
      (row) => ({
        id: id(row.id),
        createdAt: datetime(row.createdAt),
        expiresAt: optionalDatetime(row.expiresAt),
        rolledFromId: optionalId(row.rolledFromId),
      }),
    );

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    dataSource = await new DataSource(buildDataSourceOptions(loadAppConfig({ DATABASE_URL: database.url }).database)).initialize();
    await dataSource.runMigrations();
    sql = new Sql(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it.each([
    [
      ['--expires-in', '99999999d'],
      /^apikey: --expires-in 99999999d ends after 9999-12-31T23:59:59.999Z, the latest time the database holds$/,
    ],
    [['--expires-in', '999999999d'], /^apikey: --expires-in 999999999d ends after 9999-12-31T23:59:59.999Z/],
    [
      ['--expires-at', '2027-02-30T00:00:00Z'],
      /^apikey: --expires-at must be an RFC 3339 time like 2027-03-31T23:59:59Z \(got "2027-02-30T00:00:00Z"\)$/,
    ],
    [['--expires-at', '2027-01-01T24:00:00Z'], /^apikey: --expires-at must be an RFC 3339 time/],
    [['--expires-at', '2027-13-01T00:00:00Z'], /^apikey: --expires-at must be an RFC 3339 time/],
    [['--expires-at', '2027-01-01T00:60:00Z'], /^apikey: --expires-at must be an RFC 3339 time/],
    [['--expires-at', '2027-01-01T00:00:00+24:00'], /^apikey: --expires-at must be an RFC 3339 time/],
    [
      ['--expires-at', '2025-12-31T23:59:59Z'],
      /^apikey: --expires-at 2025-12-31T23:59:59Z is not in the future \(the database's clock says 20\d\d-/,
    ],
  ])('refuses create with %p: exit code 2, one line, nothing stored', async (options, message) => {
    const before = await rows();
    const result = await cli('create', 'refused', ...options);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(message);
    expect(await rows()).toEqual(before);
  });

  it.each([
    [['--overlap', '10s', '--expires-in', '99999999d'], /^apikey: --expires-in 99999999d ends after 9999-12-31T23:59:59.999Z/],
    [['--overlap', '99999999d'], /^apikey: --overlap 99999999d ends after 9999-12-31T23:59:59.999Z/],
    [['--expires-at', '2027-02-29T12:00:00Z'], /^apikey: --expires-at must be an RFC 3339 time/],
  ])('refuses roll with %p: exit code 2, one line, no successor, the old key unchanged', async (options, message) => {
    const id = await createKey('to roll', '--expires-in', '30d');
    const before = await rows();
    const result = await cli('roll', String(id), ...options);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(message);
    expect(await rows()).toEqual(before);
  });

  it('takes RFC 3339 times with fractions and offsets, leap days included', async () => {
    const id = await createKey('offset', '--expires-at', '2028-02-29T23:30:00.250+05:30');
    expect((await rows()).find((row) => row.id === id)!.expiresAt).toEqual(new Date('2028-02-29T18:00:00.250Z'));
  });

  it('counts --expires-in from the database’s clock as the key is stored, to the millisecond', async () => {
    const clock = async () => sql.now();
    const before = await clock();
    const id = await createKey('forty-five', '--expires-in', '45s');
    const after = await clock();
    const row = (await rows()).find((candidate) => candidate.id === id)!;
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(row.createdAt.getTime()).toBeLessThanOrEqual(after.getTime());
    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBe(45_000);
  });

  describe('two apikey roll processes, while another session holds the key', () => {
    let release: (() => Promise<void>) | undefined;
    afterEach(async () => release?.());

    /** Holds a lock the roll needs for `ms` (the key's row on MySQL, the write lock on SQLite), as a long transaction would. */
    async function holdKey(id: number, ms: number): Promise<void> {
      if (kind === 'mysql') {
        const connection = await mysql.createConnection(database.url);
        await connection.beginTransaction();
        await connection.query('SELECT id FROM api_keys WHERE id = ? FOR UPDATE', [id]);
        release = async () => {
          release = undefined;
          await connection.rollback().catch(() => undefined);
          await connection.end();
        };
      } else {
        const connection = new Database(database.url.replace(/^sqlite:/, ''));
        connection.exec('BEGIN IMMEDIATE');
        release = async () => {
          release = undefined;
          connection.exec('ROLLBACK');
          connection.close();
        };
      }
      setTimeout(() => void release?.(), ms);
    }

    it('roll one successor: one exits 0, the other 1 naming it, and list shows the one link', async () => {
      const id = await createKey('raced by two processes');
      await holdKey(id, 2_000);
      const [a, b] = await Promise.all([cli('roll', String(id)), cli('roll', String(id))]);
      const [winner, loser] = a.code === 0 ? [a, b] : [b, a];
      expect(winner.code).toBe(0);
      const successorId = Number(/to key (\d+)/.exec(winner.stderr)![1]);
      expect(winner.stderr).toMatch(new RegExp(`Key ${id} works until \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ`));
      expect(loser).toEqual({
        code: 1,
        stdout: '',
        stderr: `apikey: API key ${id} was rolled already, to key ${successorId}; roll that one\n`,
      });
      expect((await rows()).filter((row) => row.rolledFromId === id).map((row) => row.id)).toEqual([successorId]);
    }, 30_000);
  });
});
