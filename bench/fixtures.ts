/** What every bench puts in its database before it loads the service: a stored key and pets. */
import type mysql from 'mysql2/promise';
import { generateApiKey } from '../src/auth/api-key-secret.js';

/** A key stored as an integrator's would be (the service checks it against the hashed key store); its secret. */
export async function storeBenchKey(pool: mysql.Pool): Promise<string> {
  const { key, prefix, hash } = generateApiKey();
  await pool.query('INSERT INTO api_keys (name, prefix, key_hash, created_at) VALUES (?, ?, ?, NOW())', ['bench', prefix, hash]);
  return key;
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
      "INSERT INTO pet_metadata (pet_id, name, value) SELECT id, 'batch', CONCAT('B', id % 100) FROM pets WHERE id > ? AND id <= ?",
      [start, end],
    );
  }
}

/** Pets `from` to `to` (exclusive), named by number, in 50 categories and the three statuses in turn. */
export async function seedPets(pool: mysql.Pool, from: number, to: number): Promise<void> {
  const statuses = ['available', 'pending', 'sold'];
  for (let start = from; start < to; start += 10_000) {
    const rows = [];
    for (let i = start; i < Math.min(to, start + 10_000); i++) rows.push([`Seeded ${i}`, (i % 50) + 1, statuses[i % 3]]);
    await pool.query('INSERT INTO pets (name, category_id, status) VALUES ?', [rows]);
  }
}
