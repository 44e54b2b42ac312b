import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { SharedRedis } from '../../src/redis/shared-redis.js';
import { createSandbox, type TestSandbox } from '../support/sandbox-keys.js';
import { eventually } from './support/eventually.js';
import { REDIS_PROBE_VARIABLE, redisServerUrl, removeRedisKeys } from './support/global-setup.js';
import { AUTH, expectError, startApp, TEST_API_KEY } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

type Entry = Record<string, unknown> & { id: string };

/**
 * What a sandbox keeps to itself besides its pets and orders (DECISIONS "Sandboxes"): its
 * Idempotency-Key records and its request log; what its keys share with every other sandbox's (one
 * rate budget); and how the metrics tell sandbox traffic from live without naming a sandbox.
 */
describe.each(DATABASE_KINDS)('a sandbox’s idempotency records, request log and metrics on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  let first: TestSandbox;
  let second: TestSandbox;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_RATE_LIMIT_PER_MINUTE: '0' });
    first = await createSandbox(app, 'first sandbox');
    second = await createSandbox(app, 'second sandbox');
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('never replays an Idempotency-Key across environments: the same key and body make a pet in each, each replayed in its own', async () => {
    const body = { name: `Keyed in each ${kind}`, categoryId: 1 };
    const create = (auth: { Authorization: string }) => http().post('/v1/pets').set(auth).set('Idempotency-Key', 'sbx-same-key').send(body);

    const live = await create(AUTH);
    const inFirst = await create(first.auth);
    const inSecond = await create(second.auth);
    for (const created of [live, inFirst, inSecond]) {
      expect(created.status).toBe(201);
      expect(created.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(new Set([live.body.id, inFirst.body.id, inSecond.body.id]).size).toBe(3);
    expect([live.body.livemode, inFirst.body.livemode, inSecond.body.livemode]).toEqual([true, false, false]);

    // Each retry gets its own environment's answer back.
    for (const [auth, created] of [
      [AUTH, live],
      [first.auth, inFirst],
      [second.auth, inSecond],
    ] as const) {
      const replayed = await create(auth);
      expect(replayed.status).toBe(201);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toEqual(created.body);
    }

    // Each record is kept in its key's environment.
    const records: { environment: number | string }[] = await app
      .get(DataSource)
      .query("SELECT environment FROM idempotency_records WHERE idempotency_key = 'sbx-same-key' ORDER BY environment");
    expect(records.map((record) => Number(record.environment))).toEqual([0, first.environment.id, second.environment.id]);
  });

  it('shows each key only its own environment’s requests, each entry with livemode last', async () => {
    const fail = (auth: { Authorization: string }, requestId: string) =>
      http().post('/v1/pets').set(auth).set('X-Request-Id', requestId).send({ name: '' });
    expectError(await fail(AUTH, 'sbx-log-live'), 400, 'VALIDATION_FAILED');
    expectError(await fail(first.auth, 'sbx-log-first'), 400, 'VALIDATION_FAILED');
    expectError(await fail(second.auth, 'sbx-log-second'), 400, 'VALIDATION_FAILED');

    const entry = (auth: { Authorization: string }, id: string) =>
      eventually(
        () => http().get(`/v1/requests/${id}`).set(auth),
        (response) => response.status === 200,
        3_000,
      );
    const inFirst = await entry(first.auth, 'sbx-log-first');
    expect(inFirst.body).toMatchObject({ id: 'sbx-log-first', status: 400, livemode: false });
    expect(Object.keys(inFirst.body).at(-1)).toBe('livemode');
    const live = await entry(AUTH, 'sbx-log-live');
    expect(live.body).toMatchObject({ id: 'sbx-log-live', livemode: true });
    expect(Object.keys(live.body).at(-1)).toBe('livemode');
    await entry(second.auth, 'sbx-log-second');

    // Another environment's entry is not found, as an unknown one is.
    expectError(await http().get('/v1/requests/sbx-log-live').set(first.auth), 404, 'REQUEST_NOT_FOUND');
    expectError(await http().get('/v1/requests/sbx-log-second').set(first.auth), 404, 'REQUEST_NOT_FOUND');
    expectError(await http().get('/v1/requests/sbx-log-first').set(AUTH), 404, 'REQUEST_NOT_FOUND');

    const listed = async (auth: { Authorization: string }) => {
      const response = await http().get('/v1/requests?limit=100').set(auth);
      expect(response.status).toBe(200);
      return response.body as Entry[];
    };
    const firstListed = await listed(first.auth);
    expect(firstListed.map((found) => found.id)).toContain('sbx-log-first');
    expect(firstListed.every((found) => found.livemode === false)).toBe(true);
    expect(firstListed.map((found) => found.id)).not.toContain('sbx-log-second');
    const liveListed = await listed(AUTH);
    expect(liveListed.map((found) => found.id)).toContain('sbx-log-live');
    expect(liveListed.every((found) => found.livemode === true)).toBe(true);

    // The log keeps each entry's environment.
    const rows: { request_id: string; environment: number | string }[] = await app
      .get(DataSource)
      .query("SELECT request_id, environment FROM request_log WHERE request_id LIKE 'sbx-log-%' ORDER BY request_id");
    expect(rows.map((row) => [row.request_id, Number(row.environment)])).toEqual([
      ['sbx-log-first', first.environment.id],
      ['sbx-log-live', 0],
      ['sbx-log-second', second.environment.id],
    ]);
  });

  it('reads a key’s entries in its own environment only, whatever else the log holds under its key', async () => {
    // An entry under the first sandbox key's id but of live: no request can make one, so the reads must name the environment to pass it by.
    const [{ key_id: keyId }]: { key_id: string }[] = await app
      .get(DataSource)
      .query("SELECT key_id FROM request_log WHERE request_id = 'sbx-log-first'");
    await app.get(DataSource).query(
      'INSERT INTO request_log (environment, request_id, key_id, created_at, method, path, operation, status, status_class, ' +
        'duration_ms, idempotency_key, replayed, error_code, error_message, count, client_address, user_agent) ' +
        "VALUES (0, 'sbx-log-elsewhere', ?, ?, 'POST', '/v1/pets', 'createPet', 400, 4, 1, NULL, 0, 'VALIDATION_FAILED', 'Elsewhere.', 1, '127.0.0.1', NULL)",
      // As both databases read a DATETIME(3): the newest entry of the key.
      [keyId, new Date().toISOString().replace('T', ' ').replace('Z', '')],
    );
    expectError(await http().get('/v1/requests/sbx-log-elsewhere').set(first.auth), 404, 'REQUEST_NOT_FOUND');
    const listed = await http().get('/v1/requests?status=400&limit=100').set(first.auth);
    expect(listed.status).toBe(200);
    expect((listed.body as Entry[]).map((found) => found.id)).not.toContain('sbx-log-elsewhere');
  });

  it('labels request metrics environment="live" or "sandbox", never with a sandbox’s id', async () => {
    expect((await http().get('/v1/requests').set(first.auth)).status).toBe(200);
    expect((await http().get('/v1/requests').set(second.auth)).status).toBe(200);
    expect((await http().get('/v1/requests').set(AUTH)).status).toBe(200);
    const metrics = (await http().get('/metrics')).text;
    const counted = (pattern: RegExp) => Number(pattern.exec(metrics)?.[1] ?? 0);
    expect(
      counted(/^petstore_http_requests_total\{method="GET",route="\/v1\/requests",status="200",environment="sandbox"\} (\d+)$/m),
    ).toBeGreaterThanOrEqual(2);
    expect(
      counted(/^petstore_http_requests_total\{method="GET",route="\/v1\/requests",status="200",environment="live"\} (\d+)$/m),
    ).toBeGreaterThanOrEqual(1);
    expect(
      counted(
        /^petstore_http_request_duration_seconds_count\{method="GET",route="\/v1\/requests",status="200",environment="sandbox"\} (\d+)$/m,
      ),
    ).toBeGreaterThanOrEqual(2);
    // A request without a valid key is the live service's.
    expectError(await http().get('/v1/requests'), 401, 'API_KEY_MISSING');
    const afterwards = (await http().get('/metrics')).text;
    expect(afterwards).toMatch(/^petstore_http_requests_total\{method="GET",route="\/v1\/requests",status="401",environment="live"\} 1$/m);
    expect(new Set([...afterwards.matchAll(/environment="([^"]*)"/g)].map(([, environment]) => environment))).toEqual(
      new Set(['live', 'sandbox']),
    );
  });
});

/** The RateLimit fields' remaining count of `policy`. */
const remaining = (response: request.Response, policy: string) =>
  Number(new RegExp(`"${policy}";r=(\\d+);t=\\d+`).exec(String(response.headers.ratelimit ?? ''))?.[1]);

describe.each(DATABASE_KINDS)('the budget all sandboxes share on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  let first: TestSandbox;
  let second: TestSandbox;
  let third: TestSandbox;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '3', SANDBOX_RATE_LIMIT_PER_MINUTE: '5' });
    first = await createSandbox(app, 'first sandbox');
    second = await createSandbox(app, 'second sandbox');
    third = await createSandbox(app, 'third sandbox');
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('counts every sandbox key’s request against it, on top of the key’s own limit; past it, RATE_LIMITED that says so; live keys are not counted', async () => {
    // The first key spends its own limit (3), and its refused requests spend nothing of the shared budget.
    const firstAnswers = [];
    for (let i = 0; i < 5; i++) firstAnswers.push(await http().get('/v1/requests').set(first.auth));
    expect(firstAnswers.map((response) => response.status)).toEqual([200, 200, 200, 429, 429]);
    expect(firstAnswers[0].headers['ratelimit-policy']).toBe('"per-key";q=3;w=60, "sandboxes";q=5;w=60');
    expect(firstAnswers[0].headers.ratelimit).toMatch(/^"per-key";r=2;t=\d+, "sandboxes";r=4;t=\d+$/);
    expect(firstAnswers.slice(0, 3).map((response) => remaining(response, 'sandboxes'))).toEqual([4, 3, 2]);
    expect(firstAnswers[3].body.message).toMatch(/^Too many requests for this API key; retry in \d+ s\.$/);

    // A key of another sandbox has the two left, then is refused for the sandboxes' budget.
    const secondAnswers = [];
    for (let i = 0; i < 3; i++) secondAnswers.push(await http().get('/v1/requests').set(second.auth));
    expect(secondAnswers.map((response) => response.status)).toEqual([200, 200, 429]);
    expect(secondAnswers.slice(0, 2).map((response) => remaining(response, 'sandboxes'))).toEqual([1, 0]);
    const refused = secondAnswers[2];
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.body.message).toMatch(/^The sandboxes' shared budget is spent: all sandboxes together may make 5 requests a minute/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['ratelimit-policy']).toBe('"per-key";q=3;w=60, "sandboxes";q=5;w=60');
    expect(refused.headers.ratelimit).toMatch(/^"per-key";r=0;t=\d+, "sandboxes";r=0;t=\d+$/);
    expectError(await http().get('/v1/requests').set(third.auth), 429, 'RATE_LIMITED');

    // Live keys answer on, their own limit alone.
    const live = await http().get('/v1/requests').set(AUTH);
    expect(live.status).toBe(200);
    expect(live.headers['ratelimit-policy']).toBe('"per-key";q=3;w=60');
    expect(live.headers.ratelimit).toMatch(/^"per-key";r=2;t=\d+$/);
  });
});

describe('the sandboxes’ budget without a per-key limit', () => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('still holds the sandboxes to theirs, and sends live keys no RateLimit fields', async () => {
    const { auth } = await createSandbox(app, 'unlimited keys');
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await http().get('/v1/requests').set(auth));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 429]);
    expect(answers[0].headers['ratelimit-policy']).toBe('"sandboxes";q=2;w=60');
    expect(answers[0].headers.ratelimit).toMatch(/^"sandboxes";r=1;t=\d+$/);
    const live = await http().get('/v1/requests').set(AUTH);
    expect(live.status).toBe(200);
    expect(live.headers['ratelimit-policy']).toBeUndefined();
  });
});

// Two instances sharing the budget need one database both reach (MySQL) and Redis.
const REDIS_KINDS = process.env[REDIS_PROBE_VARIABLE] === 'available' ? DATABASE_KINDS.filter((kind) => kind === 'mysql') : [];

describe.each(REDIS_KINDS)('the sandboxes’ budget shared through Redis by two instances, on %s', (kind) => {
  // Counters of this run only, removed afterwards.
  const prefix = `petstore-e2e-sbx-${process.pid}-${randomBytes(4).toString('hex')}:`;
  let database: TestDatabase;
  let apps: NestExpressApplication[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const env = { REDIS_URL: redisServerUrl(), REDIS_KEY_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: '100', SANDBOX_RATE_LIMIT_PER_MINUTE: '4' };
    apps = [await startApp(database, env), await startApp(database, { ...env, MIGRATIONS_RUN: 'false' })];
    for (const app of apps) expect(await app.get(SharedRedis).whenReady(5_000)).toBe(true);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.drop();
    await removeRedisKeys(prefix);
  });

  it('refuses a key of one sandbox on one instance once a key of another spent the budget on the other', async () => {
    const first = await createSandbox(apps[0], 'first sandbox');
    const second = await createSandbox(apps[1], 'second sandbox');
    const [one, two] = apps.map((app) => () => request(app.getHttpServer()));
    for (let i = 0; i < 4; i++) expect((await one().get('/v1/requests').set(first.auth)).status).toBe(200);
    const refused = await two().get('/v1/requests').set(second.auth);
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.body.message).toMatch(/^The sandboxes' shared budget is spent/);
    expect((await two().get('/v1/requests').set('Authorization', `Bearer ${TEST_API_KEY}`)).status).toBe(200);
  });
});
