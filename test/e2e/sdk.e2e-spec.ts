import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PetStore,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
} from '../../clients/typescript/src/index.js';
import { ApiKeyIssuer } from '../../src/auth/api-key-issuer.js';
import { type FaultProxy, startFaultProxy } from './support/fault-proxy.js';
import { freePort } from './support/free-port.js';
import { startApp, TEST_API_KEY, useApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS } from './support/test-database.js';
import { failure } from './support/sdk-failure.js';

const SERVICE_ERROR = { code: 'INTERNAL_ERROR', message: 'Broken on purpose.', status: 500 };

/**
 * The official TypeScript SDK (clients/typescript), against the real service on both databases,
 * and behind a proxy that injects the faults a network and a gateway cause.
 */
describe.each(DATABASE_KINDS)('the TypeScript SDK on %s', (kind) => {
  const ctx = useApp(kind);
  let baseUrl: string;
  let proxy: FaultProxy | undefined;
  beforeAll(() => {
    baseUrl = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}/v1`;
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });
  const client = (options: ConstructorParameters<typeof PetStore>[0] = {}) => new PetStore({ apiKey: TEST_API_KEY, baseUrl, ...options });
  /** A client whose calls pass the fault proxy, and the proxy. */
  const behindFaults = async (plan: Parameters<typeof startFaultProxy>[1], options: ConstructorParameters<typeof PetStore>[0] = {}) => {
    proxy = await startFaultProxy(baseUrl.replace(/\/v1$/, ''), plan);
    return client({ baseUrl: `${proxy.url}/v1`, ...options });
  };

  it('creates with the defaults left out, and walks every page of a listing with for await', async () => {
    const petstore = client();
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await petstore.pets.create({ name: `Paged ${kind} ${i}`, categoryId: 4 }));
    expect(made.every((pet) => pet.status === 'available')).toBe(true);

    const first = await petstore.pets.list({ limit: 3 });
    expect(first.data).toHaveLength(3);
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.data[0].id).toBeGreaterThan(first.data[2].id);

    const walked = [];
    for await (const pet of petstore.pets.list({ limit: 3 })) walked.push(pet.id);
    expect(walked).toEqual([...walked].sort((a, b) => a - b));
    expect(walked).toEqual(expect.arrayContaining(made.map((pet) => pet.id)));
    const last = await petstore.pets.list({ limit: 100 });
    expect(last.hasNextPage()).toBe(false);
    await expect(last.getNextPage()).rejects.toThrow('last page');
  });

  it('walks orders page by page with a status filter, and reads one order, one pet and the inventory', async () => {
    const petstore = client();
    const pets = [];
    const placed = [];
    // An order holds its pet: one pet each.
    for (let i = 0; i < 5; i++) {
      pets.push(await petstore.pets.create({ name: `Ordered ${kind} ${i}`, categoryId: 1 }));
      placed.push(await petstore.store.orders.create({ petId: pets[i].id, quantity: i + 1 }));
    }
    expect(placed.every((order) => order.status === 'placed' && order.complete === false)).toBe(true);
    const walked = [];
    for await (const order of petstore.store.orders.list({ status: 'placed', limit: 2 })) walked.push(order.id);
    expect(walked).toEqual(expect.arrayContaining(placed.map((order) => order.id)));
    expect(await petstore.store.orders.get(placed[0].id)).toEqual(placed[0]);
    // The deprecated getPet still works until its sunset; the order holds the pet.
    expect(await petstore.pets.get(pets[0].id)).toEqual({ ...pets[0], status: 'pending' });
    expect(await petstore.store.inventory()).toMatchObject({ pending: expect.any(Number) });
  });

  it('retries a create whose answer was lost after it was stored, with the same Idempotency-Key: stored once', async () => {
    for (const fault of ['lose-answer', 'cut-after'] as const) {
      const name = `Once ${kind} ${fault}`;
      const petstore = await behindFaults((request, nth) => (request.method === 'POST' && nth === 0 ? fault : 'forward'));
      const pet = await petstore.pets.create({ name, categoryId: 1 });
      expect(proxy!.seen).toEqual(['POST /v1/pets', 'POST /v1/pets']);
      const stored = [];
      for await (const candidate of client().pets.list({ limit: 100 })) if (candidate.name === name) stored.push(candidate);
      expect(stored).toEqual([pet]);
      await proxy!.close();
      proxy = undefined;
    }
  });

  it('retries a GET through a gateway error, and never a request the service refused', async () => {
    const petstore = await behindFaults((request, nth) =>
      request.method === 'GET' && nth === 0 ? { status: 502, body: { message: 'Bad gateway' } } : 'forward',
    );
    expect((await petstore.pets.list({ limit: 1 })).data).toHaveLength(1);
    expect(proxy!.seen).toEqual(['GET /v1/pets', 'GET /v1/pets']);
    proxy!.seen.length = 0;
    await failure(petstore.pets.create({ name: '', categoryId: 1 }));
    expect(proxy!.seen).toEqual(['POST /v1/pets']);
  });

  it('throws the error class of each status the service answers, with its code and request id', async () => {
    const invalid = await failure(client().pets.create({ name: ' ', categoryId: 1 }));
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', requestId: expect.any(String) });

    const unknown = await failure(client({ apiKey: 'psk_not-a-key' }).pets.list());
    expect(unknown).toBeInstanceOf(AuthenticationError);
    expect(unknown).toMatchObject({ status: 401, code: 'API_KEY_INVALID' });

    const { key: readOnly } = await ctx.app.get(ApiKeyIssuer).create('sdk read-only', { scopes: ['pets:read'] });
    const forbidden = await failure(client({ apiKey: readOnly }).pets.create({ name: 'Not mine to add', categoryId: 1 }));
    expect(forbidden).toBeInstanceOf(PermissionDeniedError);
    expect(forbidden).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    expect((await client({ apiKey: readOnly }).pets.list({ limit: 1 })).data).toBeDefined();

    const missing = await failure(client().store.orders.get(987654));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'ORDER_NOT_FOUND' });

    const idempotencyKey = `sdk-reused-${kind}`;
    await client().pets.create({ name: 'First body', categoryId: 1 }, { idempotencyKey });
    const reused = await failure(client().pets.create({ name: 'Other body', categoryId: 1 }, { idempotencyKey }));
    expect(reused).toBeInstanceOf(UnprocessableEntityError);
    expect(reused).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('throws the error classes of faults, having retried those worth retrying', async () => {
    const inUse = await behindFaults(
      () => ({
        status: 409,
        body: { code: 'IDEMPOTENCY_KEY_IN_USE', message: 'Still running.', status: 409 },
        headers: { 'Retry-After': '0' },
      }),
      { maxRetries: 1 },
    );
    expect(await failure(inUse.pets.create({ name: 'Racing', categoryId: 1 }))).toBeInstanceOf(ConflictError);
    expect(proxy!.seen).toHaveLength(2);
    await proxy!.close();

    const broken = await behindFaults(() => ({ status: 500, body: SERVICE_ERROR }));
    const internal = await failure(broken.pets.list());
    expect(internal).toBeInstanceOf(InternalServerError);
    expect(internal).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', message: 'Broken on purpose.' });
    expect(proxy!.seen).toHaveLength(1);
    await proxy!.close();

    const down = await behindFaults(() => ({
      status: 503,
      body: { code: 'SERVICE_UNAVAILABLE', message: 'Down.', status: 503 },
      headers: { 'Retry-After': '0' },
    }));
    const unavailable = await failure(down.pets.list());
    expect(unavailable).toBeInstanceOf(ServiceUnavailableError);
    expect(unavailable).toMatchObject({ status: 503, retryAfter: 0 });
    expect(proxy!.seen).toHaveLength(3);
    await proxy!.close();

    const silent = await behindFaults(() => 'hang', { timeoutMs: 200, maxRetries: 0 });
    const timedOut = await failure(silent.pets.list());
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(timedOut.status).toBeUndefined();

    const nowhere = client({ baseUrl: `http://127.0.0.1:${await freePort()}/v1`, maxRetries: 1 });
    const refused = await failure(nowhere.pets.list());
    expect(refused).toBeInstanceOf(ConnectionError);
    expect(refused).not.toBeInstanceOf(TimeoutError);
  });

  it('takes its key and base URL from PETSTORE_API_KEY and PETSTORE_BASE_URL, and refuses to start without a key', async () => {
    const saved = { key: process.env.PETSTORE_API_KEY, base: process.env.PETSTORE_BASE_URL };
    try {
      process.env.PETSTORE_API_KEY = TEST_API_KEY;
      process.env.PETSTORE_BASE_URL = baseUrl;
      expect((await new PetStore().pets.list({ limit: 1 })).data).toBeDefined();
      delete process.env.PETSTORE_API_KEY;
      expect(() => new PetStore()).toThrow('PetStore needs an API key');
    } finally {
      for (const [name, value] of [
        ['PETSTORE_API_KEY', saved.key],
        ['PETSTORE_BASE_URL', saved.base],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe('the TypeScript SDK over a key’s rate limit', () => {
  it('throws RateLimitError with the seconds to wait, when told not to retry or asked to wait over 30 s', async () => {
    const database = await createTestDatabase('sqlite');
    const app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '1' });
    try {
      const { port } = app.getHttpServer().address() as AddressInfo;
      const petstore = new PetStore({ apiKey: TEST_API_KEY, baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
      await petstore.pets.list();
      const limited = await failure(petstore.pets.list());
      expect(limited).toBeInstanceOf(RateLimitError);
      expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
      expect(limited.retryAfter).toBeGreaterThan(0);

      // Asked to wait the rest of the minute, over the 30 s worth waiting: thrown at once, for the caller to choose.
      const patient = new PetStore({ apiKey: TEST_API_KEY, baseUrl: `http://127.0.0.1:${port}/v1` });
      const started = Date.now();
      const atOnce = await failure(patient.pets.list());
      expect(atOnce).toBeInstanceOf(RateLimitError);
      expect(atOnce.retryAfter).toBeGreaterThan(30);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
