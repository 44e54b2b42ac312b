import { beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import type { Sql } from '../../src/database/sql.js';
import { requestFingerprint } from '../../src/idempotency/idempotency-key.js';
import { IdempotencyClaim, IdempotencyRepository, IdempotentRequest } from '../../src/idempotency/idempotency.repository.js';
import { PINO_LOGGER } from '../../src/logging/logging.module.js';
import { PetsRepository } from '../../src/pets/pets.repository.js';
import { DATABASE_KINDS } from '../e2e/support/test-database.js';
import { useDatabase } from './support/use-database.js';

/**
 * The idempotency records on a real database, without the service: the migrations' schema, the
 * TypeORM connection, Sql and the repositories. What only these can show: a request that outlived
 * its claim and finishes after another took the claim over, which no request can be made to do.
 */
describe.each(DATABASE_KINDS)('the idempotency records on %s', (kind) => {
  let sql: Sql;
  let records: IdempotencyRepository;
  let pets: PetsRepository;

  const ctx = useDatabase(kind, [{ provide: PINO_LOGGER, useValue: pino({ enabled: false }) }, IdempotencyRepository, PetsRepository]);
  beforeAll(() => {
    sql = ctx.sql;
    records = ctx.module.get(IdempotencyRepository);
    pets = ctx.module.get(PetsRepository);
  });

  const petsNamed = async (name: string) =>
    (await sql.rows('SELECT COUNT(*) AS n FROM pets WHERE name = ?', [name], (row) => Number(row.n)))[0];

  it('lets no late owner complete a claim taken over from it: its create is rolled back with IDEMPOTENCY_KEY_IN_USE', async () => {
    const body = { name: `Late owner ${kind} ${Date.now()}`, categoryId: 1 };
    const pet = { id: 0, ...body, status: 'available' as const };
    const idFromInsert = { idFromInsert: true };
    const request = () => new IdempotentRequest('key-late-owner', 'late-owner', requestFingerprint('POST', '/v1/pets', body));

    const first = await records.claim('key-late-owner', 'late-owner', request().fingerprint);
    if (first.kind !== 'claimed') throw new Error(`expected a claim, got a ${first.kind}`);
    // The first owner, still running past the deadline (its database was silent): its claim as old as an abandoned one.
    const claimedAt = new Date(first.claim.claimedAt.getTime() - 8_000);
    await sql.run('UPDATE idempotency_records SET created_at = ? WHERE id = ?', [claimedAt, first.claim.recordId]);
    const lateOwner = new IdempotencyClaim(records, first.claim.recordId, claimedAt);

    // A retry takes the claim over and creates the pet.
    const retry = request();
    const created = await records.createOnce(retry, pet, [pets.insert(pet)], idFromInsert);
    expect(retry.replayed).toBe(false);
    expect(created.id).toBeGreaterThan(0);

    // What createOnce runs for the late owner once it is answered: the create and the stored answer in one transaction.
    await expect(records.write(lateOwner, 201, { answer: pet, statements: [pets.insert(pet)], idFromInsert: true })).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_IN_USE',
    });
    await lateOwner.release();
    expect(await petsNamed(body.name)).toBe(1);

    // The retry's answer stands: the late owner's release freed nothing.
    const again = request();
    expect(await records.createOnce(again, pet, [pets.insert(pet)], idFromInsert)).toEqual(created);
    expect(again.replayed).toBe(true);
    expect(await petsNamed(body.name)).toBe(1);
  });
});
