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

/** A database of the test's own: a fresh SQLite file, or a uniquely named MySQL database. */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-e2e-'));
    return {
      kind,
      url: `sqlite:${join(directory, 'petstore.sqlite')}`,
      drop: () => rm(directory, { recursive: true, force: true }),
    };
  }
  const name = `petstore_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  // latin1 on purpose: the migrations alone must make names Unicode-safe, whatever the server's default.
  await onServer(`CREATE DATABASE \`${name}\` CHARACTER SET latin1`);
  return {
    kind,
    url: `${mysqlServerUrl()}/${name}`,
    drop: () => onServer(`DROP DATABASE IF EXISTS \`${name}\``),
  };
}

async function onServer(sql: string): Promise<void> {
  const connection = await mysql.createConnection({ uri: mysqlServerUrl(), connectTimeout: 3_000 });
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}
