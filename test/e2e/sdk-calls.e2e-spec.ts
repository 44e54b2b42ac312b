import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import {
  AbortError,
  type Fetch,
  type Logger,
  PetStore,
  type PetStoreOptions,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
} from '../../clients/typescript/src/index.js';
import { type Fault, type FaultProxy, startFaultProxy } from './support/fault-proxy.js';
import { startApp, TEST_API_KEY, useApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { failure } from './support/sdk-failure.js';
import * as expected from '../support/resources.js';

/** A logger that keeps each line, as `level message`. */
function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { lines, logger: { debug: (message) => lines.push(`debug ${message}`), info: (message) => lines.push(`info ${message}`) } };
}

const unavailable = (retryAfter: string): Fault => ({
  status: 503,
  body: { code: 'SERVICE_UNAVAILABLE', message: 'Down.', status: 503 },
  headers: { 'Retry-After': retryAfter },
});

/**
 * What issue 47 asked of the TypeScript SDK, against the real service: a call's own options over
 * the client's, withOptions(), cancelling, the whole answer (withResponse, `_request_id`), the log,
 * and the cap on a Retry-After; behind the fault proxy where a network's or a gateway's fault is needed.
 */
describe('a TypeScript SDK call: its own options, its whole answer and its log', () => {
  const ctx = useApp('sqlite');
  let baseUrl: string;
  let proxy: FaultProxy | undefined;
  beforeAll(() => {
    baseUrl = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}/v1`;
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });
  const client = (options: PetStoreOptions = {}) => new PetStore({ apiKey: TEST_API_KEY, baseUrl, ...options });
  const behindFaults = async (plan: Parameters<typeof startFaultProxy>[1], options: PetStoreOptions = {}) => {
    await proxy?.close();
    proxy = await startFaultProxy(baseUrl.replace(/\/v1$/, ''), plan);
    return client({ baseUrl: `${proxy.url}/v1`, ...options });
  };

  it('times a call out and retries it by its own timeoutMs and maxRetries, over the client’s', async () => {
    const patient = await behindFaults(() => 'hang', { timeoutMs: 30_000, maxRetries: 2 });
    const started = Date.now();
    expect(await failure(patient.pets.list({}, { timeoutMs: 200, maxRetries: 0 }))).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(proxy!.seen).toEqual(['GET /v1/pets']);

    const flaky = await behindFaults((request, nth) => (nth < 2 ? unavailable('0') : 'forward'), { maxRetries: 0 });
    expect(await failure(flaky.pets.list())).toBeInstanceOf(ServiceUnavailableError);
    expect((await flaky.pets.list({}, { maxRetries: 2 })).data).toEqual(expect.any(Array));
    expect(proxy!.seen).toEqual(['GET /v1/pets', 'GET /v1/pets', 'GET /v1/pets']);
  });

  it('sends a call’s extraHeaders over the client’s, whatever their case: the service echoes the X-Request-Id it is given', async () => {
    const traced = client({ extraHeaders: { 'X-Request-Id': 'sdk-client-trace' } });
    expect((await traced.pets.create({ name: 'Traced', categoryId: 2 }))._request_id).toBe('sdk-client-trace');
    const own = await traced.pets.create({ name: 'Traced again', categoryId: 2 }, { extraHeaders: { 'x-request-id': 'sdk-call-trace' } });
    expect(own._request_id).toBe('sdk-call-trace');
  });

  it('makes with withOptions() a client of other options on the same fetch, and leaves the first as it was', async () => {
    const sent: string[] = [];
    const fetch: Fetch = (url, init) => {
      sent.push(url);
      return globalThis.fetch(url, init as RequestInit);
    };
    const first = await behindFaults(() => unavailable('0'), { fetch, maxRetries: 2 });
    const hasty = first.withOptions({ maxRetries: 0 });
    expect(await failure(hasty.pets.list())).toBeInstanceOf(ServiceUnavailableError);
    expect(sent).toHaveLength(1);
    expect(await failure(first.pets.list())).toBeInstanceOf(ServiceUnavailableError);
    expect(sent).toHaveLength(4);
    expect(proxy!.seen).toHaveLength(4);
  });

  it('cancels a call by its signal: in flight, while it waits to retry, and before anything is sent', async () => {
    const hanging = await behindFaults(() => 'hang');
    const inFlight = new AbortController();
    setTimeout(() => inFlight.abort(new Error('the user left')), 100);
    const started = Date.now();
    const cancelled = await failure(hanging.pets.list({}, { signal: inFlight.signal }));
    expect(cancelled).toBeInstanceOf(AbortError);
    expect(cancelled).toMatchObject({ name: 'AbortError', status: undefined, cause: new Error('the user left') });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(proxy!.seen).toEqual(['GET /v1/pets']);

    const limited = await behindFaults(() => unavailable('10'));
    const waiting = new AbortController();
    setTimeout(() => waiting.abort(), 300);
    const before = Date.now();
    expect(await failure(limited.store.inventory({ signal: waiting.signal }))).toBeInstanceOf(AbortError);
    expect(Date.now() - before).toBeLessThan(2_000);
    expect(proxy!.seen).toEqual(['GET /v1/store/inventory']);

    expect(await failure(limited.pets.create({ name: 'Never sent', categoryId: 1 }, { signal: AbortSignal.abort() }))).toBeInstanceOf(
      AbortError,
    );
    expect(proxy!.seen).toEqual(['GET /v1/store/inventory']);
  });

  it('answers a create’s status and headers by withResponse(): its Location, and Idempotent-Replayed on a replay', async () => {
    const petstore = client();
    const idempotencyKey = `sdk-raw-${Date.now()}`;
    const created = await petstore.pets.create({ name: 'Raw', categoryId: 2 }, { idempotencyKey }).withResponse();
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(new RegExp(`/v1/pets/${created.data.id}$`));
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    expect(created.headers.get('ratelimit')).toMatch(/;r=\d+;t=\d+$/);
    expect(created.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.data._request_id).toBe(created.requestId);

    const replayed = await petstore.pets.create({ name: 'Raw', categoryId: 2 }, { idempotencyKey }).withResponse();
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('location')).toBe(created.headers.get('location'));
    expect(replayed.data).toEqual(created.data);
    expect(replayed.requestId).not.toBe(created.requestId);

    // The deprecated getPet's answer says so, and when it goes.
    const old = await petstore.pets.get(created.data.id).withResponse();
    expect([old.headers.get('deprecation'), old.headers.get('sunset')]).toEqual([expect.any(String), expect.stringContaining('2030')]);
  });

  it('carries the request id on every result object, out of its JSON and keys, and on every page', async () => {
    const petstore = client();
    const pet = await petstore.pets.create({ name: 'Identified', categoryId: 2 });
    expect(pet._request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(pet)).not.toContain('_request_id');
    expect(JSON.parse(JSON.stringify(pet))).toEqual(expected.pet({ id: pet.id, name: 'Identified', categoryId: 2 }));
    expect({ ...pet }).not.toHaveProperty('_request_id');
    const inventory = await petstore.store.inventory();
    expect(inventory._request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(inventory._request_id).not.toBe(pet._request_id);

    await petstore.pets.create({ name: 'Identified too', categoryId: 2 });
    const listing = await petstore.pets.list({ limit: 1 }).withResponse();
    expect(listing.headers.get('link')).toContain('rel="next"');
    const [first, second] = [listing.data, await listing.data.getNextPage()];
    expect(first._request_id).toBe(listing.requestId);
    expect(second._request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second._request_id).not.toBe(first._request_id);
  });

  it('logs each attempt at debug, each answer and wait at info, with method, path, status, duration and request id, never the key', async () => {
    const { logger, lines } = capturingLogger();
    const gateway = await behindFaults(
      (request, nth) => (request.method === 'POST' && nth === 0 ? { status: 502, body: { message: 'Bad gateway' } } : 'forward'),
      { logger, logLevel: 'debug' },
    );
    const pet = await gateway.pets.create({ name: 'Logged', categoryId: 2 }, { idempotencyKey: 'sdk-logged' });
    expect(lines).toEqual([
      'debug POST /pets: sending (attempt 1 of 3, Idempotency-Key sdk-logged)',
      expect.stringMatching(/^info POST \/pets: 502 in \d+ ms, request unnamed \(attempt 1 of 3\)$/),
      expect.stringMatching(/^info POST \/pets: waiting 0\.\d\d s before attempt 2 of 3$/),
      'debug POST /pets: sending (attempt 2 of 3, Idempotency-Key sdk-logged)',
      expect.stringMatching(new RegExp(`^info POST /pets: 201 in \\d+ ms, request ${pet._request_id} \\(attempt 2 of 3\\)$`)),
    ]);
    expect(lines.join('\n')).not.toContain(TEST_API_KEY);

    lines.length = 0;
    await gateway.withOptions({ logLevel: 'info' }).pets.list({ limit: 1 });
    expect(lines).toEqual([expect.stringMatching(/^info GET \/pets\?limit=1: 200 in \d+ ms, request [0-9a-f-]{36} \(attempt 1 of 3\)$/)]);
    lines.length = 0;
    await client({ logger }).pets.list({ limit: 1 });
    expect(lines).toEqual([]);
  });

  it('logs to the console’s stderr at the level PETSTORE_LOG names', async () => {
    const written = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    process.env.PETSTORE_LOG = 'debug';
    let said: string[];
    try {
      await client().pets.list({ limit: 1 });
      said = written.mock.calls.map(([line]) => String(line));
    } finally {
      delete process.env.PETSTORE_LOG;
      written.mockRestore();
    }
    expect(said).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z petstore DEBUG GET \/pets\?limit=1: sending \(attempt 1 of 3\)$/),
      expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z petstore INFO GET \/pets\?limit=1: 200 in \d+ ms, request [0-9a-f-]{36} /),
    ]);
  });

  it('waits the Retry-After a 429 asks for, saying so', async () => {
    const { logger, lines } = capturingLogger();
    const limited = await behindFaults(
      (request, nth) =>
        nth === 0
          ? { status: 429, body: { code: 'RATE_LIMITED', message: 'Slow down.', status: 429 }, headers: { 'Retry-After': '1' } }
          : 'forward',
      { logger, logLevel: 'info' },
    );
    const started = Date.now();
    expect(await limited.store.inventory()).toMatchObject({ available: expect.any(Number) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(lines).toContainEqual('info GET /store/inventory: waiting 1 s, as Retry-After asks, before attempt 2 of 3');
  });
});

describe('the TypeScript SDK over a key’s rate limit, with a cap on the Retry-After it waits for', () => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  let baseUrl: string;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '1' });
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('throws at once a 429 whose Retry-After is over maxRetryAfterMs, and says why', async () => {
    const { logger, lines } = capturingLogger();
    const petstore = new PetStore({ apiKey: TEST_API_KEY, baseUrl, maxRetryAfterMs: 1_000, logger, logLevel: 'info' });
    await petstore.store.inventory();
    const started = Date.now();
    const limited = await failure(petstore.store.inventory());
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited.retryAfter).toBeGreaterThan(1);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(`^info GET /store/inventory: 429 RATE_LIMITED in \\d+ ms, request ${limited.requestId} \\(attempt 1 of 3\\)$`),
      ),
      `info GET /store/inventory: not waiting the ${limited.retryAfter} s Retry-After asks, over maxRetryAfterMs (1000 ms): RateLimitError thrown`,
    ]);
  });
});
