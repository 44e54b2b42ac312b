import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { MYSQL_PROBE_VARIABLE, mysqlServerUrl } from './global-setup.js';

export type DatabaseKind = 'sqlite' | 'mysql';

/** Every e2e file runs on each of these: the SQLite file always, MySQL when a server answers. */
export const DATABASE_KINDS: DatabaseKind[] = process.env[MYSQL_PROBE_VARIABLE] === 'available' ? ['sqlite', 'mysql'] : ['sqlite'];

export interface TestDatabase {
  readonly kind: DatabaseKind;
  /** A DATABASE_URL for the service. */
  readonly url: string;
  drop(): Promise<void>;
}

/** A MySQL server to make the database on, and its character set and collation (the server's default when null). */
export interface MysqlServer {
  readonly url: string;
  readonly charset: string | null;
  readonly collation?: string;
}

/** The suite's server, its databases made as production's are (docker-compose.yml's server): utf8mb4_unicode_ci. */
export const AS_PRODUCTION = (): MysqlServer => ({ url: mysqlServerUrl(), charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' });

/**
 * The suite's server, its databases latin1: where a migration's text column without its own
 * CHARACTER SET would be latin1 and lose every emoji, as on a server whose default is latin1 (the
 * schema and migration tests run there: the migrations alone make text Unicode-safe).
 */
export const LATIN1 = (): MysqlServer => ({ url: mysqlServerUrl(), charset: 'latin1' });

/**
 * A database of the test's own: a fresh SQLite file, or a uniquely named MySQL database, as
 * production's on the suite's server unless `server` says otherwise.
 */
export async function createTestDatabase(kind: DatabaseKind, server: MysqlServer = AS_PRODUCTION()): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-e2e-'));
    return {
      kind,
      url: `sqlite:${join(directory, 'petstore.sqlite')}`,
      drop: () => rm(directory, { recursive: true, force: true }),
    };
  }
  const name = `petstore_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  const charset = server.charset ? ` CHARACTER SET ${server.charset}${server.collation ? ` COLLATE ${server.collation}` : ''}` : '';
  await onServer(server.url, `CREATE DATABASE \`${name}\`${charset}`);
  return {
    kind,
    url: `${server.url}/${name}`,
    drop: () => onServer(server.url, `DROP DATABASE IF EXISTS \`${name}\``),
  };
}

async function onServer(url: string, sql: string): Promise<void> {
  const connection = await mysql.createConnection({ uri: url, connectTimeout: 3_000 });
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}
