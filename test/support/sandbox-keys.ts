import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { ApiKeyIssuer, type NewKeyOptions } from '../../src/auth/api-key-issuer.js';
import { Sql } from '../../src/database/sql.js';
import { Environment } from '../../src/environments/environment.js';

/** A sandbox made for a test: its environment, its `sbx_…` id, and an all-scope key of it. */
export interface TestSandbox {
  readonly environment: Environment;
  readonly publicId: string;
  /** `psk_test_…`, for `Authorization: Bearer`. */
  readonly key: string;
  /** The header that sends the key. */
  readonly auth: { readonly Authorization: string };
}

/**
 * A sandbox of the running app and a key of it, made as the service makes them, without the
 * sandboxes API: its row in `sandboxes` (its id is its environment's), and a key the app's own
 * ApiKeyIssuer issues in that environment. `options` (scopes, expiry) go to the key.
 */
export async function createSandbox(
  app: INestApplication,
  name = 'test sandbox',
  options: Omit<NewKeyOptions, 'environment'> = {},
): Promise<TestSandbox> {
  const sql = app.get(Sql);
  const now = await sql.now();
  const publicId = `sbx_${randomBytes(12).toString('base64url')}`;
  const { insertId } = await sql.run(
    'INSERT INTO sandboxes (public_id, name, created_at, expires_at, deleted_at) VALUES (?, ?, ?, ?, NULL)',
    [publicId, name, now, new Date(now.getTime() + 86_400_000)],
  );
  const environment = Environment.of(insertId);
  const { key } = await app.get(ApiKeyIssuer).create(name, { ...options, environment });
  return { environment, publicId, key, auth: { Authorization: `Bearer ${key}` } };
}

/** Another key of the sandbox, as its ApiKeyIssuer makes it. */
export async function sandboxKey(
  app: INestApplication,
  sandbox: TestSandbox,
  options: Omit<NewKeyOptions, 'environment'> = {},
): Promise<string> {
  return (await app.get(ApiKeyIssuer).create('another sandbox key', { ...options, environment: sandbox.environment })).key;
}
