import { beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import type { Sql } from '../../src/database/sql.js';
import { InsertedId } from '../../src/database/statement.js';
import { UnitOfWork } from '../../src/database/unit-of-work.js';
import { Environment } from '../../src/environments/environment.js';
import { requestFingerprint } from '../../src/idempotency/idempotency-key.js';
import { Idempotency, IdempotentRequest } from '../../src/idempotency/idempotency.js';
import { IdempotencyRepository } from '../../src/idempotency/idempotency.repository.js';
import { PINO_LOGGER } from '../../src/logging/logger.js';
import { PET } from '../../src/pets/dto/pet-fields.js';
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
  let writes: UnitOfWork;
  let idempotency: Idempotency;
  let pets: PetsRepository;

  const ctx = useDatabase(kind, [
    { provide: PINO_LOGGER, useValue: pino({ enabled: false }) },
    IdempotencyRepository,
    Idempotency,
    UnitOfWork,
    PetsRepository,
  ]);
  beforeAll(() => {
    sql = ctx.sql;
    writes = ctx.module.get(UnitOfWork);
    idempotency = ctx.module.get(Idempotency);
    pets = ctx.module.get(PetsRepository);
  });

  const petsNamed = async (name: string) =>
    (await sql.rows('SELECT COUNT(*) AS n FROM pets WHERE environment = 0 AND name = ?', [name], (row) => Number(row.n)))[0];

  it('lets no late owner complete a claim taken over from it: its create is rolled back with IDEMPOTENCY_KEY_IN_USE', async () => {
    const body = { name: `Late owner ${kind} ${Date.now()}`, categoryId: 1 };
    // As the service makes a pet (PET): every field a create leaves out has its value.
    const pet = PET.create(body, { id: 0, livemode: true });
    const id = new InsertedId('pet');
    const create = async () => ({ answer: pet, answerId: id, statements: pets.insert(Environment.LIVE, pet, id) });
    const request = () =>
      new IdempotentRequest(Environment.LIVE, 'key-late-owner', 'late-owner', requestFingerprint('POST', '/v1/pets', body));

    const lateOwner = idempotency.of<typeof pet>(request(), 201)!;
    expect(await lateOwner.begin()).toBeUndefined();
    // The first owner, still running past the deadline (its database was silent): its claim as old as an abandoned one.
    await sql.run("UPDATE idempotency_records SET created_at = ? WHERE environment = 0 AND key_id = 'key-late-owner'", [
      new Date(Date.now() - 9_000),
    ]);

    // A retry takes the claim over and creates the pet.
    const retry = request();
    const created = await writes.write(create, idempotency.of(retry, 201));
    expect(retry.replayed).toBe(false);
    expect(created.id).toBeGreaterThan(0);

    // What the unit of work commits for the late owner once it is answered: the create and the stored answer in one transaction.
    const decision = await create();
    const joined = lateOwner.join(decision);
    const transaction = await sql.begin();
    await expect(
      transaction.commit([...decision.statements, ...joined.statements], (written) =>
        joined.check(written.slice(decision.statements.length)),
      ),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    await lateOwner.abandon();
    expect(await petsNamed(body.name)).toBe(1);

    // The retry's answer stands: the late owner's release freed nothing.
    const again = request();
    expect(await writes.write(create, idempotency.of(again, 201))).toEqual(created);
    expect(again.replayed).toBe(true);
    expect(await petsNamed(body.name)).toBe(1);
  });
});
