import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';

/** Rows of environment `environment` in each table a sandbox has rows in, and its own row, counted in the database. */
export async function rowsOf(app: NestExpressApplication, environment: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const dataSource = app.get(DataSource);
  for (const table of ['pets', 'pet_metadata', 'orders', 'events', 'idempotency_records', 'request_log', 'api_keys']) {
    const [{ count }] = await dataSource.query(`SELECT COUNT(*) AS count FROM ${table} WHERE environment = ?`, [environment]);
    counts[table] = Number(count);
  }
  const [{ count }] = await dataSource.query('SELECT COUNT(*) AS count FROM sandboxes WHERE id = ?', [environment]);
  counts.sandboxes = Number(count);
  return counts;
}

/** Inserts `count` pets in `environment` straight into the database, in statements of up to 1,000 rows. */
export async function insertPets(app: NestExpressApplication, environment: number, count: number): Promise<void> {
  const dataSource = app.get(DataSource);
  for (let done = 0; done < count; done += 1_000) {
    const rows = Math.min(1_000, count - done);
    const values = Array.from({ length: rows }, () => "(?, 'Rex', 1, 'available', '{}')").join(', ');
    await dataSource.query(
      `INSERT INTO pets (environment, name, category_id, status, metadata) VALUES ${values}`,
      Array(rows).fill(environment),
    );
  }
}

/** The numeric id (the environment) of the sandbox with this public id. */
export async function environmentOf(app: NestExpressApplication, publicId: string): Promise<number> {
  const [{ id }] = await app.get(DataSource).query('SELECT id FROM sandboxes WHERE public_id = ?', [publicId]);
  return Number(id);
}
