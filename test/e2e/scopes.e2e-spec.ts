import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { runApiKeyCli } from './support/service-process.js';
import { expectError, startApp, TEST_API_KEY } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const NEW_PET = { name: 'Scoped', categoryId: 1 };

/** What a call may need made first: an available pet, or an open order (each call its own, as each moves or removes it). */
interface Fresh {
  pet(): Promise<number>;
  order(): Promise<number>;
}

/** Each operation, the request that calls it, and the scopes it needs (a change of an existing resource: its read scope too). */
const OPERATIONS = [
  { operation: 'listPets', scopes: ['pets:read'], call: (http: request.Agent) => http.get('/v1/pets') },
  { operation: 'getPet', scopes: ['pets:read'], call: (http: request.Agent) => http.get('/v1/pets/1') },
  { operation: 'createPet', scopes: ['pets:write'], call: (http: request.Agent) => http.post('/v1/pets').send(NEW_PET) },
  {
    operation: 'updatePet',
    scopes: ['pets:read', 'pets:write'],
    call: (http: request.Agent) => http.patch('/v1/pets/1').send({ name: 'Renamed' }),
  },
  {
    operation: 'deletePet',
    scopes: ['pets:read', 'pets:write'],
    call: async (http: request.Agent, fresh: Fresh) => http.delete(`/v1/pets/${await fresh.pet()}`),
  },
  { operation: 'listOrders', scopes: ['store:read'], call: (http: request.Agent) => http.get('/v1/store/orders') },
  { operation: 'getOrder', scopes: ['store:read'], call: (http: request.Agent) => http.get('/v1/store/orders/1') },
  { operation: 'getInventory', scopes: ['store:read'], call: (http: request.Agent) => http.get('/v1/store/inventory') },
  {
    operation: 'placeOrder',
    scopes: ['store:write'],
    call: async (http: request.Agent, fresh: Fresh) => http.post('/v1/store/orders').send({ petId: await fresh.pet(), quantity: 1 }),
  },
  {
    operation: 'updateOrder',
    scopes: ['store:read', 'store:write'],
    call: (http: request.Agent) => http.patch('/v1/store/orders/1').send({ shipDate: '2027-01-01T00:00:00Z' }),
  },
  {
    operation: 'cancelOrder',
    scopes: ['store:read', 'store:write'],
    call: async (http: request.Agent, fresh: Fresh) => http.post(`/v1/store/orders/${await fresh.order()}/cancel`),
  },
] as const;

/** The keys the tests make: one per single scope, and the pairs a change of an existing resource needs. */
const KEY_SCOPES = ['pets:read', 'pets:write', 'store:read', 'store:write', 'pets:read,pets:write', 'store:read,store:write'] as const;

describe.each(DATABASE_KINDS)('API key scopes on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  const cli = (...args: string[]) => runApiKeyCli(args, { DATABASE_URL: database.url });
  const createKey = async (...args: string[]) => {
    const result = await cli('create', ...args);
    expect(result.code).toBe(0);
    return result.stdout.trim();
  };
  const http = (key: string) => request.agent(app.getHttpServer()).set(bearer(key));
  const keyRows = () => app.get(DataSource).query('SELECT * FROM api_keys ORDER BY id');
  const countPets = async () => Number((await app.get(DataSource).query('SELECT COUNT(*) AS n FROM pets'))[0].n);
  const keys: Record<string, string> = {};
  const fresh: Fresh = {
    pet: async () => (await http(TEST_API_KEY).post('/v1/pets').send(NEW_PET)).body.id,
    order: async () =>
      (
        await http(TEST_API_KEY)
          .post('/v1/store/orders')
          .send({ petId: await fresh.pet(), quantity: 1 })
      ).body.id,
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await startApp(database, { API_KEYS: TEST_API_KEY });
    // A pet and an order to read.
    expect((await http(TEST_API_KEY).post('/v1/pets').send(NEW_PET)).status).toBe(201);
    expect((await http(TEST_API_KEY).post('/v1/store/orders').send({ petId: 1, quantity: 1 })).status).toBe(201);
    for (const scopes of KEY_SCOPES) keys[scopes] = await createKey(`only ${scopes}`, '--scopes', scopes);
    keys.all = await createKey('everything');
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it.each(OPERATIONS)('lets $operation run with exactly the scopes $scopes', async ({ scopes, call }) => {
    for (const [holds, key] of Object.entries(keys)) {
      const held: readonly string[] = holds === 'all' ? scopes : holds.split(',');
      const response = await call(http(key), fresh);
      const missing = (scopes as readonly string[]).filter((scope) => !held.includes(scope));
      if (missing.length === 0) expect(response.status).toBeLessThan(300);
      else {
        expectError(response, 403, 'INSUFFICIENT_SCOPE');
        const named = missing.length === 1 ? `the scope ${missing[0]}` : `the scopes ${missing.join(' and ')}`;
        expect(response.body.message).toBe(`This API key does not hold ${named}, which this operation needs.`);
        expect(response.headers['www-authenticate']).toBe(
          `Bearer realm="petstore", error="insufficient_scope", scope="${scopes.join(' ')}"`,
        );
      }
    }
  });

  it('reads nothing through a write scope: a change of an existing pet or order needs its read scope (1.4.0 answered it whole)', async () => {
    for (const [key, path] of [
      [keys['pets:write'], '/v1/pets/1'],
      [keys['store:write'], '/v1/store/orders/1'],
    ]) {
      const patched = await http(key).patch(path).send({});
      expectError(patched, 403, 'INSUFFICIENT_SCOPE');
      expect(JSON.stringify(patched.body)).not.toMatch(/categoryId|petId|quantity/);
    }
    expectError(await http(keys['pets:write']).delete('/v1/pets/1'), 403, 'INSUFFICIENT_SCOPE');
    expectError(await http(keys['store:write']).post('/v1/store/orders/1/cancel'), 403, 'INSUFFICIENT_SCOPE');
    expect((await http(TEST_API_KEY).get('/v1/pets/1')).status).toBe(200);
  });

  it("tells a key that cannot read the other resource only that its request cannot proceed, never that resource's state", async () => {
    const sold = await fresh.pet();
    await http(TEST_API_KEY).patch(`/v1/pets/${sold}`).send({ status: 'sold' }).expect(200);
    const held = await fresh.pet();
    const order = (await http(TEST_API_KEY).post('/v1/store/orders').send({ petId: held, quantity: 1 }).expect(201)).body.id;

    // An order for a sold pet: a store:write key that cannot read pets learns no status.
    const blind = await http(keys['store:write']).post('/v1/store/orders').send({ petId: sold, quantity: 1 });
    expectError(blind, 409, 'PET_NOT_AVAILABLE');
    expect(blind.body.message).toBe(`Pet ${sold} cannot be ordered.`);
    const seeing = await http(keys.all).post('/v1/store/orders').send({ petId: sold, quantity: 1 });
    expect(seeing.body.message).toBe(`Pet ${sold} is sold, not available: it cannot be ordered.`);

    // A direct move of a held pet, a delete of an ordered one: a pets key that cannot read orders learns no order.
    const move = await http(keys['pets:read,pets:write']).patch(`/v1/pets/${held}`).send({ status: 'sold' });
    expectError(move, 409, 'PET_HAS_OPEN_ORDER');
    expect(move.body.message).toBe(`The status of pet ${held} cannot change now.`);
    expect((await http(keys.all).patch(`/v1/pets/${held}`).send({ status: 'sold' })).body.message).toMatch(`held by order ${order}`);
    const removal = await http(keys['pets:read,pets:write']).delete(`/v1/pets/${held}`);
    expectError(removal, 409, 'PET_HAS_ORDERS');
    expect(removal.body.message).toBe(`Pet ${held} cannot be deleted.`);
    expect((await http(keys.all).delete(`/v1/pets/${held}`)).body.message).toMatch('named by orders');
  });

  it('gives API_KEYS keys and keys made without --scopes every scope, requests:read (1.5.0) and the sandboxes ones (1.6.0) among them', async () => {
    for (const key of [TEST_API_KEY, keys.all]) {
      for (const { call } of OPERATIONS) expect((await call(http(key), fresh)).status).toBeLessThan(300);
    }
    expect((await cli('list')).stdout).toMatch(
      /everything\s+psk_\S+\s+pets:read,pets:write,store:read,store:write,webhooks:read,webhooks:write,requests:read,sandboxes:read,sandboxes:write\s/,
    );
  });

  it('tells a store:write key whether a pet exists, as placing an order needs (kept on purpose: docs/SECURITY.md)', async () => {
    const writer = keys['store:write'];
    expectError(await http(writer).get('/v1/pets/1'), 403, 'INSUFFICIENT_SCOPE');
    expect(
      (
        await http(writer)
          .post('/v1/store/orders')
          .send({ petId: await fresh.pet(), quantity: 1 })
      ).status,
    ).toBe(201);
    expectError(await http(writer).post('/v1/store/orders').send({ petId: 987654321, quantity: 1 }), 404, 'PET_NOT_FOUND');
  });

  it('refuses before anything is validated, read or written, and after authentication', async () => {
    const before = await countPets();
    // A body that is not valid: still the scope's 403, and nothing stored.
    expectError(await http(keys['pets:read']).post('/v1/pets').send({ name: '' }), 403, 'INSUFFICIENT_SCOPE');
    expectError(await http(keys['pets:read']).post('/v1/pets').send(NEW_PET), 403, 'INSUFFICIENT_SCOPE');
    const keyed = await http(keys['pets:read']).post('/v1/pets').set('Idempotency-Key', 'scoped-out').send(NEW_PET);
    expectError(keyed, 403, 'INSUFFICIENT_SCOPE');
    expect(await countPets()).toBe(before);
    expect(Number((await app.get(DataSource).query('SELECT COUNT(*) AS n FROM idempotency_records'))[0].n)).toBe(0);
    // No key: authentication answers first. A bad id with the wrong scope: the scope first.
    expectError(await request(app.getHttpServer()).post('/v1/pets').send(NEW_PET), 401, 'API_KEY_MISSING');
    expectError(await http(keys['store:read']).get('/v1/pets/abc'), 403, 'INSUFFICIENT_SCOPE');
  });

  it('answers an unknown route 404 and a wrong method 405 whatever the scopes, after authentication', async () => {
    expectError(await http(keys['store:write']).get('/v1/nothing'), 404, 'ROUTE_NOT_FOUND');
    expectError(await http(keys['store:write']).put('/v1/pets/1'), 405, 'METHOD_NOT_ALLOWED');
    expectError(await request(app.getHttpServer()).get('/v1/nothing'), 401, 'API_KEY_MISSING');
  });

  it('counts a refused request against the key like any other', async () => {
    const response = await http(keys['pets:write']).get('/v1/pets');
    expectError(response, 403, 'INSUFFICIENT_SCOPE');
    expect(response.headers.ratelimit).toMatch(/^"per-key";r=\d+;t=\d+$/);
  });

  it('lists each key with its scopes', async () => {
    const { stdout } = await cli('list');
    expect(stdout.split('\n')[0].split(/\s{2,}/)).toEqual([
      'ID',
      'NAME',
      'PREFIX',
      'SCOPES',
      'CREATED',
      'EXPIRES',
      'LAST USED',
      'REVOKED',
      'ROLLED',
      'ENVIRONMENT',
    ]);
    expect(stdout).toMatch(/only pets:read\s+psk_\S+\s+pets:read\s/);
    expect(stdout).toMatch(/only store:write\s+psk_\S+\s+store:write\s/);
  });

  it('makes a key with several scopes, written in any order', async () => {
    const key = await createKey('reporting', '--scopes', 'store:read, pets:read');
    expect((await http(key).get('/v1/pets')).status).toBe(200);
    expect((await http(key).get('/v1/store/inventory')).status).toBe(200);
    expectError(await http(key).post('/v1/store/orders').send({ petId: 1, quantity: 1 }), 403, 'INSUFFICIENT_SCOPE');
    expect((await cli('list')).stdout).toMatch(/reporting\s+psk_\S+\s+pets:read,store:read\s/);
  });

  it.each([
    [['--scopes', 'pets:delete'], /--scopes: "pets:delete" is no scope; the scopes are pets:read, pets:write, store:read, store:write/],
    [['--scopes', ''], /--scopes: "" is no scope/],
    [['--scopes', 'pets:read,'], /--scopes: "" is no scope/],
    [['--scopes'], /--scopes/],
    [['--scope', 'pets:read'], /Unknown option '--scope'/],
  ])('refuses create %p with exit code 2, one line, and makes no key', async (args, message) => {
    // No key made, read in the database (every column of every key) rather than by two more
    // processes of the tool (`list`): 20 fewer processes on the two databases, the same check.
    const before = await keyRows();
    const result = await cli('create', 'refused', ...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(await keyRows()).toEqual(before);
  });
});
