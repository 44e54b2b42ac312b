/** What every bench puts in its database before it loads the service: a stored key and pets. */
import type mysql from 'mysql2/promise';
import { generateApiKey } from '../src/auth/api-key-secret.js';

/** A key stored as an integrator's would be (the service checks it against the hashed key store); its secret. */
export async function storeBenchKey(pool: mysql.Pool): Promise<string> {
  const { key, prefix, hash } = generateApiKey();
  await pool.query('INSERT INTO api_keys (name, prefix, key_hash, created_at) VALUES (?, ?, ?, NOW())', ['bench', prefix, hash]);
  return key;
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
