import { beforeAll, describe, expect, it } from '@jest/globals';
import { id } from '../../src/database/columns.js';
import type { Sql } from '../../src/database/sql.js';
import { ApiKeyIssuer, KeyNotRollableError } from '../../src/auth/api-key-issuer.js';
import { ApiKeysRepository } from '../../src/auth/api-keys.repository.js';
import { DATABASE_KINDS } from '../e2e/support/test-database.js';
import { useDatabase } from './support/use-database.js';

/**
 * The API keys on a real database, without the service or the key tool: the migrations' schema, the
 * TypeORM connection, the repository and the issuer that writes through it. What only these can
 * show: many rolls of one key at once, more than the processes a test can start side by side.
 * MySQL only: twenty rolls side by side need twenty connections, and a SQLite database holds one
 * transaction at a time (its racing rolls are key-tool-writes.e2e-spec.ts's two processes).
 */
describe.each(DATABASE_KINDS.filter((kind) => kind === 'mysql'))('the API keys on %s', (kind) => {
  let sql: Sql;
  let issuer: ApiKeyIssuer;

  const ctx = useDatabase(kind, [ApiKeysRepository, ApiKeyIssuer]);
  beforeAll(() => {
    sql = ctx.sql;
    issuer = ctx.module.get(ApiKeyIssuer);
  });

  it('makes one successor of twenty rolls of one key at once; the others are refused, naming it', async () => {
    const { apiKey } = await issuer.create('raced in one process');
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => issuer.roll(apiKey.id, 60_000, null)));
    const made = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(made).toHaveLength(1);
    const successorId = made[0].value!.apiKey.id;
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect(outcome.reason).toEqual(
          new KeyNotRollableError(`API key ${apiKey.id} was rolled already, to key ${successorId}; roll that one`),
        );
    }
    const successors = await sql.rows('SELECT id FROM api_keys WHERE rolled_from_id = ?', [apiKey.id], (row) => id(row.id));
    expect(successors).toEqual([successorId]);
  });
});
