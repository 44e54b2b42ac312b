import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeyIssuer } from '../../src/auth/api-key-issuer.js';
import { eventually } from './support/eventually.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { AUTH, expectError, startApp, TEST_API_KEY } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';
import { useServiceProcesses } from './support/use-service-processes.js';

type Entry = Record<string, unknown> & { id: string; status: number; operation: string | null };

/** The request log (DECISIONS "Request log"): written off the request's path, read by the key that made the requests. */
describe.each(DATABASE_KINDS)('the request log on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  let other: string;
  let reader: string;
  const http = () => request(app.getHttpServer());
  const entry = (id: string, key = TEST_API_KEY) =>
    http()
      .get(`/v1/requests/${encodeURIComponent(id)}`)
      .set('Authorization', `Bearer ${key}`);
  const logged = (id: string) =>
    eventually(
      () => entry(id),
      (response) => response.status === 200,
      2_000,
    );

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '0' });
    const issuer = app.get(ApiKeyIssuer);
    other = (await issuer.create('another integrator', {})).key;
    reader = (await issuer.create('reads only its requests', { scopes: ['requests:read'] })).key;
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('shows a failed create under its X-Request-Id within a second, with the error it answered', async () => {
    const started = Date.now();
    const failed = await http().post('/v1/pets').set(AUTH).set('X-Request-Id', 'rl-failed-create').send({ name: 'Rex', categoryId: 0 });
    expectError(failed, 400, 'VALIDATION_FAILED');
    const found = await logged('rl-failed-create');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({
      id: 'rl-failed-create',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      method: 'POST',
      path: '/v1/pets',
      operation: 'createPet',
      status: 400,
      durationMs: expect.any(Number),
      idempotencyKey: null,
      replayed: false,
      error: { code: 'VALIDATION_FAILED', message: failed.body.message },
      count: 1,
      livemode: true,
    });
    // Another key sees none of it.
    expectError(await entry('rl-failed-create', other), 404, 'REQUEST_NOT_FOUND');
  });

  it('keeps a change whatever its status, and tells a replay; keeps no successful read', async () => {
    const headers = { 'X-Request-Id': 'rl-keyed-1', 'Idempotency-Key': 'rl-keyed' };
    const created = await http().post('/v1/pets').set(AUTH).set(headers).send({ name: 'Logged', categoryId: 1 });
    expect(created.status).toBe(201);
    await http()
      .post('/v1/pets')
      .set(AUTH)
      .set({ ...headers, 'X-Request-Id': 'rl-keyed-2' })
      .send({ name: 'Logged', categoryId: 1 });
    await http().get(`/v1/pets/${created.body.id}`).set(AUTH).set('X-Request-Id', 'rl-read');
    expect((await logged('rl-keyed-1')).body).toMatchObject({
      status: 201,
      operation: 'createPet',
      idempotencyKey: 'rl-keyed',
      replayed: false,
      error: null,
    });
    expect((await logged('rl-keyed-2')).body).toMatchObject({ status: 201, idempotencyKey: 'rl-keyed', replayed: true });
    expectError(await entry('rl-read'), 404, 'REQUEST_NOT_FOUND');
    // The event the create caused names it.
    const events = (await http().get('/v1/events?type=pet.created&limit=100').set(AUTH)).body as {
      request: unknown;
      data: { object: { id: number } };
    }[];
    expect(events.find((event) => event.data.object.id === created.body.id)!.request).toEqual({
      id: 'rl-keyed-1',
      idempotencyKey: 'rl-keyed',
    });
  });

  it('keeps a request no route takes, and one refused for its scope, as made with the key', async () => {
    expectError(await http().get('/v1/nowhere').set(AUTH).set('X-Request-Id', 'rl-nowhere'), 404, 'ROUTE_NOT_FOUND');
    expect((await logged('rl-nowhere')).body).toMatchObject({ operation: null, status: 404, error: { code: 'ROUTE_NOT_FOUND' } });
    const refused = await http().get('/v1/pets').set('Authorization', `Bearer ${reader}`).set('X-Request-Id', 'rl-scope');
    expectError(refused, 403, 'INSUFFICIENT_SCOPE');
    const scoped = await eventually(
      () => entry('rl-scope', reader),
      (response) => response.status === 200,
      2_000,
    );
    expect(scoped.body).toMatchObject({ operation: 'listPets', status: 403 });
    // No key, no entry: nobody's log holds it.
    await http().get('/v1/pets').set('X-Request-Id', 'rl-anonymous');
    expectError(await entry('rl-anonymous'), 404, 'REQUEST_NOT_FOUND');
  });

  it('lists a key’s requests newest first, in pages, filtered by status, status class, operation and Idempotency-Key', async () => {
    const key = (await app.get(ApiKeyIssuer).create('lister', {})).key;
    const as = (call: request.Test) => call.set('Authorization', `Bearer ${key}`);
    for (let i = 0; i < 5; i++)
      await as(http().post('/v1/pets').set('X-Request-Id', `rl-list-${i}`)).send({ name: `L${i}`, categoryId: 1 });
    await as(http().post('/v1/pets').set('X-Request-Id', 'rl-list-bad').set('Idempotency-Key', 'rl-list-key')).send({ name: '' });
    await as(http().get('/v1/pets/987654321').set('X-Request-Id', 'rl-list-missing'));
    const list = (query: string) => as(http().get(`/v1/requests?${query}`));
    const ids = (response: request.Response) => (response.body as Entry[]).map((logged) => logged.id);
    await eventually(
      () => list('limit=100'),
      (response) => response.body.length === 7,
      2_000,
    );
    const seen: string[] = [];
    for (let path: string | undefined = '/v1/requests?limit=3'; path;) {
      const page = await as(http().get(path));
      expect(page.status).toBe(200);
      seen.push(...ids(page));
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '');
      path = next ? new URL(next[1]).pathname + new URL(next[1]).search : undefined;
    }
    expect(seen).toEqual(
      ['rl-list-missing', 'rl-list-bad', 'rl-list-4', 'rl-list-3', 'rl-list-2', 'rl-list-1', 'rl-list-0'].filter((id) => seen.includes(id)),
    );
    expect(seen).toHaveLength(7);
    expect(ids(await list('status=4xx'))).toEqual(['rl-list-missing', 'rl-list-bad']);
    expect(ids(await list('status=404'))).toEqual(['rl-list-missing']);
    expect(ids(await list('status=201&operation=createPet&limit=2'))).toEqual(['rl-list-4', 'rl-list-3']);
    expect(ids(await list('idempotencyKey=rl-list-key'))).toEqual(['rl-list-bad']);
    expect(ids(await list('operation=getPet'))).toEqual(['rl-list-missing']);
    for (const query of ['status=4x', 'status=600', 'operation=create-pet', 'limit=0', 'cursor=broken'])
      expectError(await list(query), 400, 'VALIDATION_FAILED');
  });

  it('needs requests:read, which every all-scope key holds', async () => {
    const limited = (await app.get(ApiKeyIssuer).create('pets only', { scopes: ['pets:read'] })).key;
    expectError(await http().get('/v1/requests').set('Authorization', `Bearer ${limited}`), 403, 'INSUFFICIENT_SCOPE');
    expect((await http().get('/v1/requests').set('Authorization', `Bearer ${other}`)).status).toBe(200);
    expectError(await http().get('/v1/requests'), 401, 'API_KEY_MISSING');
  });

  it('keeps no key, no Authorization header and no credential in a query anywhere in the database', async () => {
    const key = (await app.get(ApiKeyIssuer).create('careless', {})).key;
    const secret = 'sekret-token-value-12345';
    await http()
      .get(`/v1/pets/abc?api_key=${secret}&access_token=${secret}`)
      .set('Authorization', `Bearer ${key}`)
      .set('X-Request-Id', 'rl-careless');
    await http().post(`/v1/pets?api_key=${secret}`).set('Authorization', `Bearer ${key}`).send({ name: secret, categoryId: 0 });
    expect(
      (
        await eventually(
          () => entry('rl-careless', key),
          (response) => response.status === 200,
          2_000,
        )
      ).body.path,
    ).toBe('/v1/pets/abc?api_key=[redacted]&access_token=[redacted]');
    const rows = await app.get(DataSource).query('SELECT * FROM request_log');
    const table = JSON.stringify(rows);
    expect(table).toContain('[redacted]');
    for (const credential of [key, key.slice(4), secret]) expect(table).not.toContain(credential);
    if (kind === 'sqlite') {
      const file = await readFile(new URL(database.url.replace('sqlite:', 'file://')).pathname);
      for (const credential of [key, secret]) expect(file.includes(Buffer.from(credential))).toBe(false);
    }
  });
  it('keeps no key: not in a path (its prefix percent-encoded), the ROUTE_NOT_FOUND message, an Idempotency-Key, an X-Request-Id or a User-Agent', async () => {
    const issuer = app.get(ApiKeyIssuer);
    const caller = (await issuer.create('leaks a key', {})).key;
    const leaked = (await issuer.create('the leaked one', {})).key;
    // Its text after `psk_`: what must be nowhere. A sandbox key (1.6.0) has the same shape, longer.
    const secret = leaked.slice(4);
    const sandbox = `psk_test_${secret}`;
    const as = (call: request.Test, id: string) => call.set('Authorization', `Bearer ${caller}`).set('X-Request-Id', id);
    const of = async (id: string) =>
      (
        await eventually(
          () => entry(id, caller),
          (response) => response.status === 200,
          2_000,
        )
      ).body as Entry & { path: string; idempotencyKey: string | null; error: { message: string } | null };

    expectError(await as(http().get(`/v1/nowhere/%70sk_${secret}`), 'rl-key-path'), 404, 'ROUTE_NOT_FOUND');
    expect(await of('rl-key-path')).toMatchObject({
      path: '/v1/nowhere/psk_[redacted]',
      error: { code: 'ROUTE_NOT_FOUND', message: 'No route matches GET /v1/nowhere/psk_[redacted].' },
    });
    expectError(await as(http().get(`/v1/pets/%70%73%6B%5F${secret}`), 'rl-key-pet'), 400, 'VALIDATION_FAILED');
    expect((await of('rl-key-pet')).path).toBe('/v1/pets/psk_[redacted]');
    expectError(await as(http().delete(`/v1/pets/987654321?x=${sandbox}`), 'rl-key-sandbox'), 404, 'PET_NOT_FOUND');
    expect((await of('rl-key-sandbox')).path).toBe('/v1/pets/987654321?x=[redacted]');

    // An Idempotency-Key that is a key is refused before anything keeps it (the log, the idempotency records, an event).
    const keyed = await as(http().post('/v1/pets'), 'rl-key-idempotency').set('Idempotency-Key', leaked).send({ name: 'K', categoryId: 1 });
    expectError(keyed, 400, 'VALIDATION_FAILED');
    expect(keyed.body.message).toMatch(/^Idempotency-Key must not hold an API key/);
    expectError(
      await as(http().get('/v1/nowhere'), 'rl-key-idempotency-get').set('Idempotency-Key', `%70sk_${secret}`),
      404,
      'ROUTE_NOT_FOUND',
    );
    expect((await of('rl-key-idempotency')).idempotencyKey).toBeNull();
    expect((await of('rl-key-idempotency-get')).idempotencyKey).toBeNull();

    // A key as the X-Request-Id is not a sane id: the service makes its own, as for any other.
    const named = await http().get('/v1/nowhere').set('Authorization', `Bearer ${caller}`).set('X-Request-Id', leaked);
    expectError(named, 404, 'ROUTE_NOT_FOUND');
    expect(named.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(named.body.requestId).toBe(named.headers['x-request-id']);
    await of(named.headers['x-request-id']);

    expectError(await as(http().get('/v1/nowhere'), 'rl-key-agent').set('User-Agent', `shop/2.1 (${leaked})`), 404, 'ROUTE_NOT_FOUND');
    await of('rl-key-agent');

    const rows = await app.get(DataSource).query('SELECT * FROM request_log');
    const table = JSON.stringify(rows);
    expect(table).toContain('shop/2.1 (psk_[redacted])');
    for (const credential of [leaked, secret, caller, caller.slice(4)]) expect(table).not.toContain(credential);
  });

  it('keeps a query value only under the operation’s own parameters, every other one [redacted]', async () => {
    const hidden = [
      'api_key[]',
      'x-api-key',
      'private_key',
      'jwt',
      'X-Amz-Signature',
      'passphrase',
      'webhook_secret',
      'credentials',
      'cachebuster',
    ].map((name, i) => [name, `s3cret-${i}`]);
    const query = `${hidden.map(([name, value]) => `${name}=${value}`).join('&')}&a=1;api_key=s3cret-x&limit=5&status=sold&metadata[erp_id]=A-17&cursor=broken`;
    expectError(await http().get(`/v1/pets?${query}`).set(AUTH).set('X-Request-Id', 'rl-query-own'), 400, 'VALIDATION_FAILED');
    expect((await logged('rl-query-own')).body.path).toBe(
      `/v1/pets?${hidden.map(([name]) => `${name}=[redacted]`).join('&')}&a=[redacted]&limit=5&status=sold&metadata[erp_id]=A-17&cursor=broken`,
    );
    // An operation that takes no query keeps no value of one; a request no operation took, none either.
    expectError(
      await http().post('/v1/pets?limit=5&token').set(AUTH).set('X-Request-Id', 'rl-query-create').send({ name: '' }),
      400,
      'VALIDATION_FAILED',
    );
    expect((await logged('rl-query-create')).body.path).toBe('/v1/pets?limit=[redacted]&[redacted]');
    expectError(await http().get('/v1/nowhere?limit=5').set(AUTH).set('X-Request-Id', 'rl-query-nowhere'), 404, 'ROUTE_NOT_FOUND');
    expect((await logged('rl-query-nowhere')).body.path).toBe('/v1/nowhere?limit=[redacted]');
    const table = JSON.stringify(await app.get(DataSource).query('SELECT * FROM request_log'));
    for (const [, value] of [...hidden, ['', 's3cret-x']]) expect(table).not.toContain(value);
  });
});

describe.each(DATABASE_KINDS)('the request log of a key past its rate limit on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '60' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('keeps at most 61 entries of 300 creates at 60 a minute: the 60 answered, and one that counts the 240 refused', async () => {
    const key = (await app.get(ApiKeyIssuer).create('floods', {})).key;
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) {
      const answered = await request(app.getHttpServer())
        .post('/v1/pets')
        .set('Authorization', `Bearer ${key}`)
        .set('X-Request-Id', `rl-flood-${i}`)
        .send({ name: `F${i}`, categoryId: 1 });
      statuses.push(answered.status);
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(240);
    type Row = { request_id: string; status: number; count: number };
    const rows = await eventually(
      (): Promise<Row[]> => app.get(DataSource).query('SELECT request_id, status, count FROM request_log'),
      (found) => found.reduce((sum, row) => sum + Number(row.count), 0) === 300,
      2_000,
    );
    expect(rows.length).toBeLessThanOrEqual(61);
    const refused = rows.filter((row) => Number(row.status) === 429);
    expect(refused.map((row) => [row.request_id, Number(row.count)])).toEqual([[`rl-flood-${statuses.indexOf(429)}`, 240]]);
  });
});

describe.each(DATABASE_KINDS)('the request log turned off (REQUEST_LOG=false) on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await startApp(database, { REQUEST_LOG: 'false', RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('writes no entry, and says so to a key that asks for its requests', async () => {
    const http = () => request(app.getHttpServer());
    expect((await http().post('/v1/pets').set(AUTH).send({ name: 'Unlogged', categoryId: 1 })).status).toBe(201);
    expectError(await http().post('/v1/pets').set(AUTH).set('X-Request-Id', 'rl-off').send({ name: '' }), 400, 'VALIDATION_FAILED');
    expectError(await http().get('/v1/nowhere').set(AUTH), 404, 'ROUTE_NOT_FOUND');
    // Longer than a batch waits.
    await new Promise((wait) => setTimeout(wait, 600));
    expect(await app.get(DataSource).query('SELECT * FROM request_log')).toEqual([]);
    for (const path of ['/v1/requests', '/v1/requests/rl-off']) {
      const answer = await http().get(path).set(AUTH);
      expectError(answer, 404, 'REQUEST_LOG_DISABLED');
      expect(answer.body.message).toBe('This service keeps no request log: its operator turned it off.');
    }
  });
});

describe.each(DATABASE_KINDS)('the request log of several instances on %s', (kind) => {
  let database: TestDatabase;
  const apps: NestExpressApplication[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    for (let i = 0; i < 2; i++) apps.push(await startApp(database, { RATE_LIMIT_PER_MINUTE: '0' }));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.drop();
  });

  it('merges what each instance wrote by time: a listing from either shows both, newest first', async () => {
    const made: string[] = [];
    for (let i = 0; i < 6; i++) {
      const id = `rl-instance-${i}`;
      await request(apps[i % 2].getHttpServer())
        .post('/v1/pets')
        .set(AUTH)
        .set('X-Request-Id', id)
        .send({ name: `I${i}`, categoryId: 1 });
      made.push(id);
      // Apart by more than the millisecond the log's times count in, so that their order is the time's alone.
      await new Promise((wait) => setTimeout(wait, 5));
    }
    for (const app of apps) {
      const listed = await eventually(
        () => request(app.getHttpServer()).get('/v1/requests?limit=100').set(AUTH),
        (response) => response.body.length === 6,
        2_000,
      );
      expect((listed.body as Entry[]).map((logged) => logged.id)).toEqual([...made].reverse());
    }
  });
});

describe.each(DATABASE_KINDS)('the request log of a service process on %s', (kind) => {
  const processes = useServiceProcesses();

  it('loses nothing queued on SIGTERM: what was answered before the stop is written before the exit', async () => {
    const database = await createTestDatabase(kind);
    try {
      const service = await processes.spawn({ DATABASE_URL: database.url, API_KEYS: TEST_API_KEY, RATE_LIMIT_PER_MINUTE: '0' });
      const base = await service.listening();
      const ids = Array.from({ length: 40 }, (_, i) => `rl-stop-${i}`);
      for (const id of ids) await request(base).get('/v1/pets/abc').set(AUTH).set('X-Request-Id', id);
      expect(await service.terminate()).toBe(0);
      const dataSource = new DataSource(
        kind === 'mysql'
          ? { type: 'mysql', url: database.url }
          : { type: 'better-sqlite3', database: database.url.slice('sqlite:'.length) },
      );
      await dataSource.initialize();
      const rows: { request_id: string }[] = await dataSource.query("SELECT request_id FROM request_log WHERE request_id LIKE 'rl-stop-%'");
      await dataSource.destroy();
      expect(rows.map((row) => row.request_id).sort()).toEqual([...ids].sort());
    } finally {
      await database.drop();
    }
  });
});

describe.each(DATABASE_KINDS.filter((kind) => kind === 'mysql'))('the request log while the database is away, on %s', (kind) => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let app: NestExpressApplication;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const direct = new URL(database.url);
    proxy = await TcpProxy.start(direct.hostname, Number(direct.port || 3306));
    const viaProxy = new URL(database.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    app = await startApp({ ...database, url: viaProxy.href }, { RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('drops and counts its entries instead of failing requests, and keeps writing once it is back', async () => {
    const http = () => request(app.getHttpServer());
    const dropped = async () =>
      Number(/^petstore_request_log_dropped_total\{reason="database"\} (\d+)/m.exec((await http().get('/metrics')).text)?.[1] ?? 0);
    const before = await dropped();
    proxy.cut('reset');
    // Requests that need no database are answered as ever (a bootstrap key, a 400 before any statement).
    for (let i = 0; i < 10; i++) {
      const answered = await http().get('/v1/pets/abc').set(AUTH);
      expectError(answered, 400, 'VALIDATION_FAILED');
    }
    expect(await eventually(dropped, (count) => count >= before + 10, 5_000)).toBeGreaterThanOrEqual(before + 10);
    proxy.restore();
    await http().get('/v1/pets/abc').set(AUTH).set('X-Request-Id', 'rl-after-outage');
    const found = await eventually(
      () => http().get('/v1/requests/rl-after-outage').set(AUTH),
      (response) => response.status === 200,
      10_000,
    );
    expect(found.status).toBe(200);
  });
});
