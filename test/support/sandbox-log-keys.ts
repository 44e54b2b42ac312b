import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKeyIssuer } from '../../src/auth/api-key-issuer.js';
import { Environment } from '../../src/environments/environment.js';

/** A sandbox made for a test (a row of the sandboxes table, as POST /v1/sandboxes makes one) and an all-scope key of it. */
export interface SandboxKey {
  /** The key's text (`psk_test_…`), for `Authorization: Bearer`. */
  readonly key: string;
  /** The sandbox's numeric id: its rows' `environment`. */
  readonly sandboxId: number;
  readonly environment: Environment;
}

/**
 * A new sandbox, alive for a day, and a key of it, made through the running service's own pieces:
 * the tests of what a sandbox's key reads and writes need neither the sandboxes' API nor its rules.
 */
export async function sandboxKey(app: INestApplication, name: string): Promise<SandboxKey> {
  const dataSource = app.get(DataSource);
  const publicId = `sbx_${randomBytes(12).toString('hex')}`;
  // As both databases read a DATETIME(3); the table's columns as src/sandboxes/sandbox.entity.ts declares them.
  const time = (at: number) => new Date(at).toISOString().replace('T', ' ').replace('Z', '');
  await dataSource.query('INSERT INTO sandboxes (public_id, name, created_at, expires_at) VALUES (?, ?, ?, ?)', [
    publicId,
    name,
    time(Date.now()),
    time(Date.now() + 24 * 60 * 60 * 1000),
  ]);
  const [{ id }]: { id: number | string }[] = await dataSource.query('SELECT id FROM sandboxes WHERE public_id = ?', [publicId]);
  const sandboxId = Number(id);
  const environment = Environment.of(sandboxId);
  const { key } = await app.get(ApiKeyIssuer).create(name, { environment });
  return { key, sandboxId, environment };
}

/** The Authorization header of `key`. */
export function bearer(key: string): { Authorization: string } {
  return { Authorization: `Bearer ${key}` };
}
