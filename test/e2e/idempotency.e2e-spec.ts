import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { bootstrapKeyId } from '../../src/auth/api-key.service.js';
import { IdempotencyRecord } from '../../src/idempotency/idempotency-record.entity.js';
import { requestFingerprint } from '../../src/idempotency/idempotency-key.js';
import { AUTH, expectError, startApp, TEST_API_KEY, useApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

const OTHER_KEY = 'second-bootstrap-key';

describe.each(DATABASE_KINDS)('Idempotency-Key on %s', (kind) => {
  const ctx = useApp(kind, { API_KEYS: `${TEST_API_KEY},${OTHER_KEY}` });
  let counter = 0;
  const uniqueName = () => `Idem ${kind} ${++counter} ${Date.now()}`;
  const post = (body: object, key?: string, auth: Record<string, string> = AUTH) => {
    const req = ctx.http().post('/v1/pets').set(auth);
    return key === undefined ? req.send(body) : req.set('Idempotency-Key', key).send(body);
  };
  const petsNamed = async (name: string) =>
    (await ctx.http().get('/v1/pets?limit=100').set(AUTH)).body.filter((pet: { name: string }) => pet.name === name).length;
  /** A record as another instance leaves it while it processes (or after it died). */
  const insertRecord = (key: string, body: object, fields: Partial<IdempotencyRecord>) => {
    const now = new Date();
    return ctx.app
      .get(DataSource)
      .getRepository(IdempotencyRecord)
      .insert({
        keyId: bootstrapKeyId(TEST_API_KEY),
        idempotencyKey: key,
        requestHash: requestFingerprint('POST', '/v1/pets', body),
        state: 'in_flight',
        responseStatus: null,
        responseBody: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + 86_400_000),
        ...fields,
      });
  };

  it('creates as usual without the header', async () => {
    const name = uniqueName();
    expect((await post({ name, categoryId: 1 })).status).toBe(201);
    expect((await post({ name, categoryId: 1 })).status).toBe(201);
    expect(await petsNamed(name)).toBe(2);
  });

  it('answers a retry with the first response, marked Idempotent-Replayed, creating nothing', async () => {
    const name = uniqueName();
    const first = await post({ name, categoryId: 2 }, `create-${name}`);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    for (let retry = 0; retry < 3; retry++) {
      const again = await post({ name, categoryId: 2 }, `create-${name}`);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers.location).toBe(first.headers.location);
    }
    expect(await petsNamed(name)).toBe(1);
  });

  it('treats the same members in another order as the same request: a replay, not IDEMPOTENCY_KEY_REUSED', async () => {
    const name = uniqueName();
    const first = await ctx
      .http()
      .post('/v1/pets')
      .set(AUTH)
      .set('Idempotency-Key', `order-${name}`)
      .type('application/json')
      .send(`{"name":${JSON.stringify(name)},"categoryId":4,"status":"sold"}`);
    expect(first.status).toBe(201);
    const reordered = await ctx
      .http()
      .post('/v1/pets')
      .set(AUTH)
      .set('Idempotency-Key', `order-${name}`)
      .type('application/json')
      .send(`{"status":"sold","categoryId":4,"name":${JSON.stringify(name)}}`);
    expect(reordered.status).toBe(201);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.body).toEqual(first.body);
    expect(await petsNamed(name)).toBe(1);
  });

  it('treats a quoted key like the bare one', async () => {
    const name = uniqueName();
    await post({ name, categoryId: 1 }, `k-${counter}`);
    const quoted = await post({ name, categoryId: 1 }, `"k-${counter}"`);
    expect(quoted.headers['idempotent-replayed']).toBe('true');
    expect(await petsNamed(name)).toBe(1);
  });

  it('answers the same key with another body with IDEMPOTENCY_KEY_REUSED and creates nothing', async () => {
    const name = uniqueName();
    await post({ name, categoryId: 1 }, `reuse-${name}`);
    expectError(await post({ name, categoryId: 2 }, `reuse-${name}`), 422, 'IDEMPOTENCY_KEY_REUSED');
    expectError(await post({ name: `${name}!`, categoryId: 1 }, `reuse-${name}`), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await petsNamed(name)).toBe(1);
  });

  it('keeps each API key to its own Idempotency-Keys', async () => {
    const name = uniqueName();
    await post({ name, categoryId: 1 }, 'shared-key');
    const other = await post({ name, categoryId: 1 }, 'shared-key', { Authorization: `Bearer ${OTHER_KEY}` });
    expect(other.status).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await petsNamed(name)).toBe(2);
  });

  it('answers IDEMPOTENCY_KEY_IN_USE while the first request may be in flight, with a Retry-After after which the retry runs', async () => {
    const body = { name: uniqueName(), categoryId: 1 };
    // Claimed 3 s ago by a request that will never answer (its process was killed).
    await insertRecord('in-flight', body, { createdAt: new Date(Date.now() - 3_000) });
    const response = await post(body, 'in-flight');
    expectError(response, 409, 'IDEMPOTENCY_KEY_IN_USE');
    const retryAfter = Number(response.headers['retry-after']);
    // The answer deadline (4.5 s) and a margin (2.5 s) from the claim: 4 s from now, 5 with a MySQL clock rounded up.
    expect(retryAfter).toBeGreaterThanOrEqual(4);
    expect(retryAfter).toBeLessThanOrEqual(5);
    expect(response.body.message).toBe(`A request with this Idempotency-Key is still being processed; retry in ${retryAfter} s.`);
    expect(await petsNamed(body.name)).toBe(0);

    await new Promise((wait) => setTimeout(wait, retryAfter * 1000));
    expect((await post(body, 'in-flight')).status).toBe(201);
    expect(await petsNamed(body.name)).toBe(1);
  }, 15_000);

  it.each([8_000, 120_000])('takes over a claim %i ms old whose request never finished (its instance died)', async (age) => {
    const body = { name: uniqueName(), categoryId: 1 };
    await insertRecord(`abandoned-${age}`, body, { createdAt: new Date(Date.now() - age) });
    expect((await post(body, `abandoned-${age}`)).status).toBe(201);
    expect((await post(body, `abandoned-${age}`)).headers['idempotent-replayed']).toBe('true');
    expect(await petsNamed(body.name)).toBe(1);
  });

  it('forgets a response after 24 hours: the key runs the request again', async () => {
    const body = { name: uniqueName(), categoryId: 1 };
    await insertRecord('expired', body, {
      state: 'done',
      responseStatus: 201,
      responseBody: JSON.stringify({ id: 1, ...body, status: 'available' }),
      createdAt: new Date(Date.now() - 90_000_000),
      expiresAt: new Date(Date.now() - 3_600_000),
    });
    const response = await post(body, 'expired');
    expect(response.status).toBe(201);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    expect(await petsNamed(body.name)).toBe(1);
  });

  it('validates the body before it claims the key: a bad body with a used key is a 400 and stores nothing', async () => {
    const name = uniqueName();
    expect((await post({ name, categoryId: 1 }, `early-${name}`)).status).toBe(201);
    expectError(await post({ name, categoryId: 0 }, `early-${name}`), 400, 'VALIDATION_FAILED');
    const records = ctx.app.get(DataSource).getRepository(IdempotencyRecord);
    expectError(await post({ name, categoryId: 0 }, `never-${name}`), 400, 'VALIDATION_FAILED');
    expect(await records.countBy({ idempotencyKey: `never-${name}` })).toBe(0);
    expect((await post({ name, categoryId: 1 }, `early-${name}`)).headers['idempotent-replayed']).toBe('true');
  });

  it('frees the key when the request fails, so the corrected retry runs', async () => {
    const name = uniqueName();
    expectError(await post({ name, categoryId: 0 }, `fix-${name}`), 400, 'VALIDATION_FAILED');
    const fixed = await post({ name, categoryId: 1 }, `fix-${name}`);
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['not printable ASCII', 'schlüssel'],
  ])('rejects an Idempotency-Key that is %s', async (_, key) => {
    const response = await ctx
      .http()
      .post('/v1/pets')
      .set(AUTH)
      .set('Idempotency-Key', Buffer.from(key, 'utf8').toString('latin1'))
      .send({ name: uniqueName(), categoryId: 1 });
    expectError(response, 400, 'VALIDATION_FAILED');
    expect(response.body.message).toMatch(/Idempotency-Key/);
  });

  it('creates exactly one pet from 20 identical requests sent at once', async () => {
    const body = { name: uniqueName(), categoryId: 1 };
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(body, `burst-${body.name}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 201 && status !== 409)).toEqual([]);
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((response) => response.body.id)).size).toBe(1);
    expect(await petsNamed(body.name)).toBe(1);
  });

  it('purges expired records when an instance starts', async () => {
    await insertRecord('to-purge', { name: 'gone', categoryId: 1 }, { expiresAt: new Date(Date.now() - 1_000) });
    const records = ctx.app.get(DataSource).getRepository(IdempotencyRecord);
    expect(await records.countBy({ idempotencyKey: 'to-purge' })).toBe(1);
    const another = await startApp(ctx.database);
    try {
      expect(await records.countBy({ idempotencyKey: 'to-purge' })).toBe(0);
    } finally {
      await another.close();
    }
  });
});

describe.each(DATABASE_KINDS.filter((kind) => kind === 'mysql'))('Idempotency-Key across two instances on %s', (kind) => {
  let database: TestDatabase;
  let instances: NestExpressApplication[];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    instances = [await startApp(database), await startApp(database)];
  });
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.close();
    await database?.drop();
  });

  it('creates exactly one pet from 20 identical requests spread over both', async () => {
    const body = { name: 'Twin', categoryId: 1 };
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(instances[i % 2].getHttpServer())
          .post('/v1/pets')
          .set(AUTH)
          .set('Idempotency-Key', 'two-instances')
          .send(body),
      ),
    );
    expect(responses.map((r) => r.status).filter((status) => status !== 201 && status !== 409)).toEqual([]);
    const listed = await request(instances[0].getHttpServer()).get('/v1/pets').set(AUTH);
    expect(listed.body.filter((pet: { name: string }) => pet.name === 'Twin')).toHaveLength(1);
  });
});
