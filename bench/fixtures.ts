/** What every bench puts in its database before it loads the service: a stored key and pets. */
import type mysql from 'mysql2/promise';
import { generateApiKey } from '../src/auth/api-key-secret.js';

/**
 * A key stored as an integrator's would be (the service checks it against the hashed key store); its
 * secret. In a sandbox (`environment`, a sandboxes row's id: storeBenchSandbox) a `psk_test_` key of it.
 */
export async function storeBenchKey(pool: mysql.Pool, environment = 0): Promise<string> {
  const { key, prefix, hash } = generateApiKey(environment !== 0);
  await pool.query('INSERT INTO api_keys (name, prefix, key_hash, created_at, environment) VALUES (?, ?, ?, NOW(), ?)', [
    'bench',
    prefix,
    hash,
    environment,
  ]);
  return key;
}

/** A sandbox, as POST /v1/sandboxes stores one, for a day: its id, the environment of its rows. */
export async function storeBenchSandbox(pool: mysql.Pool, name: string): Promise<number> {
  const [{ insertId }] = (await pool.query(
    'INSERT INTO sandboxes (public_id, name, created_at, expires_at) VALUES (?, ?, NOW(3), NOW(3) + INTERVAL 1 DAY)',
    [`sbx_bench_${name}_${Date.now()}`, name],
  )) as unknown as [{ insertId: number }];
  return insertId;
}

/**
 * Metadata on the pets with ids `from` (exclusive) to `to`: `batch` set to one of 100 values in
 * turn (`B0` to `B99`, by id), in the pet's column and in its pairs' index, as the service writes it.
 */
export async function seedPetMetadata(pool: mysql.Pool, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += 100_000) {
    const end = Math.min(to, start + 100_000);
    await pool.query(`UPDATE pets SET metadata = CONCAT('{"batch":"B', id % 100, '"}') WHERE id > ? AND id <= ?`, [start, end]);
    await pool.query(
      "INSERT INTO pet_metadata (pet_id, name, value, environment) SELECT id, 'batch', CONCAT('B', id % 100), environment FROM pets WHERE id > ? AND id <= ?",
      [start, end],
    );
  }
}

/**
 * Pets `from` to `to` (exclusive), named by number, in 50 categories and the three statuses in turn;
 * live's, or those of the environments given, in turn by batch of 10,000 (their ids interleave, as
 * those of sandboxes and live made at once would).
 */
export async function seedPets(pool: mysql.Pool, from: number, to: number, environments: readonly number[] = [0]): Promise<void> {
  const statuses = ['available', 'pending', 'sold'];
  for (let start = from; start < to; start += 10_000) {
    const environment = environments[Math.floor(start / 10_000) % environments.length];
    const rows = [];
    for (let i = start; i < Math.min(to, start + 10_000); i++) rows.push([`Seeded ${i}`, (i % 50) + 1, statuses[i % 3], environment]);
    await pool.query('INSERT INTO pets (name, category_id, status, environment) VALUES ?', [rows]);
  }
}
