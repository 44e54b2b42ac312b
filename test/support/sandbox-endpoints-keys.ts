import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { ApiKeyIssuer } from '../../src/auth/api-key-issuer.js';
import { id } from '../../src/database/columns.js';
import { Sql } from '../../src/database/sql.js';
import { Environment } from '../../src/environments/environment.js';

/** A sandbox made for a test, and an all-scope key of it. */
export interface TestSandbox {
  readonly environment: Environment;
  readonly publicId: string;
  /** The key's text (`psk_test_…`). */
  readonly key: string;
  /** The Authorization header of that key. */
  readonly auth: { readonly Authorization: string };
}

/**
 * A sandbox as its row makes one (the sandboxes API is not what these tests are about), with a key
 * of it made as the API makes a sandbox's: by ApiKeyIssuer, in the sandbox's environment.
 */
export async function makeSandbox(app: INestApplication, name = 'test sandbox'): Promise<TestSandbox> {
  const sql = app.get(Sql);
  const publicId = `sbx_${randomBytes(12).toString('base64url')}`;
  const now = Date.now();
  await sql.run('INSERT INTO sandboxes (public_id, name, created_at, expires_at) VALUES (?, ?, ?, ?)', [
    publicId,
    name,
    new Date(now),
    new Date(now + 24 * 60 * 60 * 1000),
  ]);
  const [sandboxId] = await sql.rows('SELECT id FROM sandboxes WHERE public_id = ?', [publicId], (row) => id(row.id));
  const environment = Environment.of(sandboxId);
  const { key } = await app.get(ApiKeyIssuer).create(name, { environment });
  return { environment, publicId, key, auth: { Authorization: `Bearer ${key}` } };
}
