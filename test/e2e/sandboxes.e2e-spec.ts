import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ApiKeyIssuer } from '../../src/auth/api-key-issuer.js';
import type { Clock } from '../../src/config/clock.js';
import { Environment } from '../../src/environments/environment.js';
import { SETTLE_MS } from '../../src/sandboxes/sandbox-remover.js';
import { eventually } from './support/eventually.js';
import { environmentOf, insertPets, rowsOf } from './support/sandbox-rows.js';
import { AUTH, expectError, startApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

const SANDBOX_KEY_MESSAGE = "A sandbox's API keys (psk_test_…) cannot manage sandboxes: use a live key (psk_…) that holds";

/** Sandboxes (DECISIONS "Sandboxes"): made, listed, read and deleted by live keys, each with a key of its own. */
describe.each(DATABASE_KINDS)('sandboxes on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  const http = () => request(app.getHttpServer());
  const create = (body: object, auth: Record<string, string> = AUTH) => http().post('/v1/sandboxes').set(auth).send(body);
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '0', SANDBOXES_MAX: '6' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('makes a sandbox: 201, its Location, and a psk_test_ key that works at once', async () => {
    const before = Date.now();
    const response = await create({ name: 'ci-run-1', expiresIn: 3600 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^sbx_[A-Za-z0-9_-]{22}$/),
      name: 'ci-run-1',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      livemode: true,
      apiKey: expect.stringMatching(/^psk_test_[A-Za-z0-9_-]{43}$/),
    });
    expect(Object.keys(response.body)).toEqual(['id', 'name', 'createdAt', 'expiresAt', 'livemode', 'apiKey']);
    const { id, createdAt, expiresAt, apiKey } = response.body;
    expect(response.headers.location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/v1/sandboxes/${id}$`));
    expect(Date.parse(createdAt)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(3_600_000);
    // Admitted at once, as the sandbox's: told the sandbox's keys manage no sandboxes, and when it expires.
    const admitted = await http().get('/v1/sandboxes').set(bearer(apiKey));
    expectError(admitted, 403, 'INSUFFICIENT_SCOPE');
    expect(admitted.body.message).toContain(SANDBOX_KEY_MESSAGE);
    expect(Date.parse(admitted.headers['api-key-expires'])).toBe(Math.floor(Date.parse(expiresAt) / 1000) * 1000);
    const [key] = (await app.get(ApiKeyIssuer).list()).filter((each) => each.environment !== 0);
    expect(key.environment).toBe(await environmentOf(app, id));
    expect(key.scopes).toBe('pets:read pets:write store:read store:write webhooks:read webhooks:write requests:read');
    expect(key.expiresAt?.toISOString()).toBe(expiresAt);
    await http().delete(`/v1/sandboxes/${id}`).set(AUTH).expect(202);
  });

  it('expires in 24 hours unless asked otherwise', async () => {
    const { body } = await create({ name: 'default expiry' }).expect(201);
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(86_400_000);
    await http().delete(`/v1/sandboxes/${body.id}`).set(AUTH).expect(202);
  });

  it('lists the sandboxes in use in the order they were made, in pages, and gets each', async () => {
    const made = [];
    for (const name of ['page-a', 'page-b', 'page-c']) made.push((await create({ name }).expect(201)).body);
    const first = await http().get('/v1/sandboxes?limit=2').set(AUTH).expect(200);
    expect(first.body).toEqual(made.slice(0, 2).map(({ apiKey: _, ...sandbox }) => sandbox));
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1];
    const second = await http()
      .get(new URL(next).pathname + new URL(next).search)
      .set(AUTH)
      .expect(200);
    expect(second.body).toEqual([made[2]].map(({ apiKey: _, ...sandbox }) => sandbox));
    expect(second.headers.link).toBeUndefined();
    for (const { apiKey: _, ...sandbox } of made) {
      const got = await http().get(`/v1/sandboxes/${sandbox.id}`).set(AUTH).expect(200);
      expect(got.body).toEqual(sandbox);
      expect(got.headers.etag).toEqual(expect.any(String));
    }
    for (const { id } of made) await http().delete(`/v1/sandboxes/${id}`).set(AUTH).expect(202);
  });

  it('deletes a sandbox: 202 with no body, then 404 on get and delete, not listed, its key refused', async () => {
    const { body } = await create({ name: 'to delete' }).expect(201);
    const deleted = await http().delete(`/v1/sandboxes/${body.id}`).set(AUTH);
    expect(deleted.status).toBe(202);
    expect(deleted.text).toBe('');
    expectError(await http().get(`/v1/sandboxes/${body.id}`).set(AUTH), 404, 'SANDBOX_NOT_FOUND');
    const again = await http().delete(`/v1/sandboxes/${body.id}`).set(AUTH);
    expectError(again, 404, 'SANDBOX_NOT_FOUND');
    expect(again.body.message).toBe(`No sandbox has id "${body.id}".`);
    expect((await http().get('/v1/sandboxes').set(AUTH)).body.map(({ id }: { id: string }) => id)).not.toContain(body.id);
    // This instance forgets the key at once.
    expectError(await http().get('/v1/sandboxes').set(bearer(body.apiKey)), 401, 'API_KEY_INVALID');
  });

  it('answers 404 SANDBOX_NOT_FOUND for an id no sandbox has', async () => {
    for (const id of ['sbx_nope', 'nothing-like-one', 'sbx_' + 'x'.repeat(200)]) {
      const response = await http().get(`/v1/sandboxes/${id}`).set(AUTH);
      expectError(response, 404, 'SANDBOX_NOT_FOUND');
      expectError(await http().delete(`/v1/sandboxes/${id}`).set(AUTH), 404, 'SANDBOX_NOT_FOUND');
    }
  });

  it.each([
    [{}, 'name must be a string of 1 to 100 characters, not only white space'],
    [{ name: '   ' }, 'name must be a string of 1 to 100 characters, not only white space'],
    [{ name: 'x'.repeat(101) }, 'name must be a string of 1 to 100 characters, not only white space'],
    [{ name: 7 }, 'name must be a string of 1 to 100 characters, not only white space'],
    [{ name: 'ok', expiresIn: 59 }, 'expiresIn must be an integer number of seconds from 60 to 2592000'],
    [{ name: 'ok', expiresIn: 2_592_001 }, 'expiresIn must be an integer number of seconds from 60 to 2592000'],
    [{ name: 'ok', expiresIn: 90.5 }, 'expiresIn must be an integer number of seconds from 60 to 2592000'],
    [{ name: 'ok', expiresIn: '3600' }, 'expiresIn must be an integer number of seconds from 60 to 2592000'],
    [{ name: 'ok', expiresIn: null }, 'expiresIn must be an integer number of seconds from 60 to 2592000'],
    [{ name: 'ok', livemode: false }, 'livemode is not allowed'],
  ])('refuses the body %j with VALIDATION_FAILED, making nothing', async (body, message) => {
    const before = (await http().get('/v1/sandboxes').set(AUTH)).body.length;
    const response = await create(body);
    expectError(response, 400, 'VALIDATION_FAILED');
    expect(response.body.message).toContain(message);
    expect((await http().get('/v1/sandboxes').set(AUTH)).body.length).toBe(before);
  });

  it('accepts the bounds of expiresIn, a minute and 30 days', async () => {
    for (const expiresIn of [60, 2_592_000]) {
      const { body } = await create({ name: `bound ${expiresIn}`, expiresIn }).expect(201);
      expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(expiresIn * 1000);
      await http().delete(`/v1/sandboxes/${body.id}`).set(AUTH).expect(202);
    }
  });

  it('refuses an Idempotency-Key on a create with VALIDATION_FAILED saying why, making nothing', async () => {
    const before = (await http().get('/v1/sandboxes').set(AUTH)).body.length;
    const response = await create({ name: 'keyed' }, { ...AUTH, 'Idempotency-Key': 'sbx-1' });
    expectError(response, 400, 'VALIDATION_FAILED');
    expect(response.body.message).toContain('createSandbox takes no Idempotency-Key');
    expect((await http().get('/v1/sandboxes').set(AUTH)).body.length).toBe(before);
  });

  it('refuses a sandbox key every sandboxes operation with 403 INSUFFICIENT_SCOPE saying only live keys manage them', async () => {
    const { body: sandbox } = await create({ name: 'holds a key' }).expect(201);
    // Even a sandbox key that holds the sandboxes' scopes (the operator's tool can make one).
    const everything = (
      await app.get(ApiKeyIssuer).create('all scopes', { environment: Environment.of(await environmentOf(app, sandbox.id)) })
    ).key;
    for (const key of [sandbox.apiKey, everything]) {
      for (const response of [
        await create({ name: 'from a sandbox' }, bearer(key)),
        await http().get('/v1/sandboxes').set(bearer(key)),
        await http().get(`/v1/sandboxes/${sandbox.id}`).set(bearer(key)),
        await http().delete(`/v1/sandboxes/${sandbox.id}`).set(bearer(key)),
      ]) {
        expectError(response, 403, 'INSUFFICIENT_SCOPE');
        expect(response.body.message).toContain(SANDBOX_KEY_MESSAGE);
        expect(response.headers['www-authenticate']).toContain('error="insufficient_scope"');
      }
    }
    await http().get(`/v1/sandboxes/${sandbox.id}`).set(AUTH).expect(200);
    await http().delete(`/v1/sandboxes/${sandbox.id}`).set(AUTH).expect(202);
  });

  it('needs sandboxes:read to list and get, sandboxes:write to make, both to delete', async () => {
    const issuer = app.get(ApiKeyIssuer);
    const reader = (await issuer.create('reads sandboxes', { scopes: ['sandboxes:read'] })).key;
    const writer = (await issuer.create('makes sandboxes', { scopes: ['sandboxes:write'] })).key;
    const { body: sandbox } = await create({ name: 'scoped' }, bearer(writer)).expect(201);
    await http().get('/v1/sandboxes').set(bearer(reader)).expect(200);
    await http().get(`/v1/sandboxes/${sandbox.id}`).set(bearer(reader)).expect(200);
    expectError(await create({ name: 'no' }, bearer(reader)), 403, 'INSUFFICIENT_SCOPE');
    expectError(await http().get('/v1/sandboxes').set(bearer(writer)), 403, 'INSUFFICIENT_SCOPE');
    expectError(await http().delete(`/v1/sandboxes/${sandbox.id}`).set(bearer(writer)), 403, 'INSUFFICIENT_SCOPE');
    expectError(await http().delete(`/v1/sandboxes/${sandbox.id}`).set(bearer(reader)), 403, 'INSUFFICIENT_SCOPE');
    await http().delete(`/v1/sandboxes/${sandbox.id}`).set(AUTH).expect(202);
  });

  it('needs a key for every operation', async () => {
    expectError(await http().post('/v1/sandboxes').send({ name: 'x' }), 401, 'API_KEY_MISSING');
    expectError(await http().get('/v1/sandboxes'), 401, 'API_KEY_MISSING');
    expectError(await http().get('/v1/sandboxes/sbx_x'), 401, 'API_KEY_MISSING');
    expectError(await http().delete('/v1/sandboxes/sbx_x'), 401, 'API_KEY_MISSING');
  });

  it('makes exactly SANDBOXES_MAX of twice as many concurrent creates, then 409 SANDBOX_LIMIT_REACHED until one goes', async () => {
    const inUse = (await http().get('/v1/sandboxes?limit=100').set(AUTH)).body.length;
    const max = 6;
    const answers = await Promise.all(Array.from({ length: 2 * max }, (_, i) => create({ name: `concurrent ${i}` })));
    const made = answers.filter((response) => response.status === 201);
    expect(made.length).toBe(max - inUse);
    for (const response of answers.filter((each) => each.status !== 201)) {
      expectError(response, 409, 'SANDBOX_LIMIT_REACHED');
      expect(response.body.message).toBe(
        'This service allows 6 sandboxes at once, and 6 are in use: delete one (or let one expire) first.',
      );
    }
    expect((await http().get('/v1/sandboxes?limit=100').set(AUTH)).body.length).toBe(max);
    expectError(await create({ name: 'one too many' }), 409, 'SANDBOX_LIMIT_REACHED');
    await http().delete(`/v1/sandboxes/${made[0].body.id}`).set(AUTH).expect(202);
    const again = await create({ name: 'room again' }).expect(201);
    for (const { body } of [...made.slice(1), again]) await http().delete(`/v1/sandboxes/${body.id}`).set(AUTH).expect(202);
  });
});

/**
 * Expiry, on a clock the test moves: an expired sandbox is gone from the API at once, its key
 * refused (expired with it), and its rows removed as a deleted one's.
 */
describe.each(DATABASE_KINDS)('an expired sandbox on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  let offset = 0;
  const clock: Clock = { now: () => Date.now() + offset };
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '0' }, { clock });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('disappears from list and get, its key refused, and its rows removed', async () => {
    const { body: sandbox } = await http().post('/v1/sandboxes').set(AUTH).send({ name: 'short-lived', expiresIn: 60 }).expect(201);
    const { body: lasting } = await http().post('/v1/sandboxes').set(AUTH).send({ name: 'lasting' }).expect(201);
    const key = { Authorization: `Bearer ${sandbox.apiKey}` };
    const environment = await environmentOf(app, sandbox.id);
    await insertPets(app, environment, 3);
    expect((await rowsOf(app, environment)).pets).toBe(3);

    offset = 61_000;
    expectError(await http().get(`/v1/sandboxes/${sandbox.id}`).set(AUTH), 404, 'SANDBOX_NOT_FOUND');
    expectError(await http().delete(`/v1/sandboxes/${sandbox.id}`).set(AUTH), 404, 'SANDBOX_NOT_FOUND');
    expect((await http().get('/v1/sandboxes').set(AUTH)).body.map(({ id }: { id: string }) => id)).toEqual([lasting.id]);
    expectError(await http().get('/v1/sandboxes').set(key), 401, 'API_KEY_EXPIRED');

    offset = 61_000 + SETTLE_MS;
    const rows = await eventually(
      () => rowsOf(app, environment),
      (counts) => Object.values(counts).every((count) => count === 0),
    );
    expect(rows).toEqual({
      pets: 0,
      pet_metadata: 0,
      orders: 0,
      events: 0,
      idempotency_records: 0,
      request_log: 0,
      api_keys: 0,
      sandboxes: 0,
    });
    // The one still in use keeps its row and its key.
    await http().get(`/v1/sandboxes/${lasting.id}`).set(AUTH).expect(200);
    expectError(
      await http()
        .get('/v1/sandboxes')
        .set({ Authorization: `Bearer ${lasting.apiKey}` }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expect((await rowsOf(app, await environmentOf(app, lasting.id))).api_keys).toBe(1);
  });
});
