import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import {
  AbortError,
  BadRequestError,
  NOT_MODIFIED,
  NotFoundError,
  PetStore,
  type PetStoreOptions,
  type RequestLogEntry,
  webhooks,
  type WebhookEvent,
} from '../../clients/typescript/src/index.js';
import { type FaultProxy, startFaultProxy } from './support/fault-proxy.js';
import { TEST_API_KEY, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.js';
import { failure } from './support/sdk-failure.js';

/**
 * The request log in the TypeScript SDK (issue 53 part 3), against the real service: `requests.list`
 * with its filters and pages, `requests.get`, a failed call found by its error's requestId, and the
 * request that caused an event, on `events.list` and on a delivery `webhooks.verify` checked.
 */
describe.each(DATABASE_KINDS)('the TypeScript SDK’s request log on %s', (kind) => {
  // Deliveries to a receiver on 127.0.0.1, over http.
  const ctx = useApp(kind, { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
  let baseUrl: string;
  let proxy: FaultProxy | undefined;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    baseUrl = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}/v1`;
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });
  const client = (options: PetStoreOptions = {}) => new PetStore({ apiKey: TEST_API_KEY, baseUrl, ...options });
  const ids = (entries: readonly RequestLogEntry[]) => entries.map(({ id }) => id);
  const all = async (listing: AsyncIterable<RequestLogEntry>) => {
    const entries: RequestLogEntry[] = [];
    for await (const entry of listing) entries.push(entry);
    return entries;
  };

  it('finds a failed call by its error’s requestId, waiting for the entry to be written, with the error it answered', async () => {
    const petstore = client();
    const error = await failure(petstore.pets.create({ name: 'Rex', categoryId: 0 }));
    expect(error).toBeInstanceOf(BadRequestError);
    const entry = await petstore.requests.get(error.requestId!, { waitMs: 2_000 });
    expect(entry).toEqual({
      id: error.requestId,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      method: 'POST',
      path: '/v1/pets',
      operation: 'createPet',
      status: 400,
      durationMs: expect.any(Number),
      idempotencyKey: expect.any(String), // the one the SDK made for the create
      replayed: false,
      error: { code: 'VALIDATION_FAILED', message: error.message },
      count: 1,
      livemode: true,
    });
    expect(entry._request_id).toEqual(expect.any(String));
    expect((await petstore.requests.get(error.requestId!).withResponse()).status).toBe(200);
  });

  it('answers NOT_MODIFIED for an entry as you hold it (ifNoneMatch, its _etag), as pets.get does, and the entry for another tag', async () => {
    const petstore = client();
    const error = await failure(petstore.pets.create({ name: 'Rex', categoryId: 0 }));
    const entry = await petstore.requests.get(error.requestId!, { waitMs: 2_000 });
    expect(entry._etag).toMatch(/^"/);
    expect(await petstore.requests.get(error.requestId!, { ifNoneMatch: entry._etag })).toBe(NOT_MODIFIED);
    const whole = await petstore.requests.get(error.requestId!, { ifNoneMatch: entry._etag }).withResponse();
    expect({ status: whole.status, data: whole.data, etag: whole.headers.get('etag') }).toEqual({
      status: 304,
      data: NOT_MODIFIED,
      etag: entry._etag,
    });
    const again = await petstore.requests.get(error.requestId!, { ifNoneMatch: '"another"' });
    expect(again).toEqual(entry);
    expect(again !== NOT_MODIFIED && again._etag).toBe(entry._etag);
  });

  it('throws NotFoundError (REQUEST_NOT_FOUND) for an id not in the log: at once, or after waitMs', async () => {
    const petstore = client();
    const started = Date.now();
    const unknown = await failure(petstore.requests.get(`never-made-${kind}`));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({ status: 404, code: 'REQUEST_NOT_FOUND' });
    expect(Date.now() - started).toBeLessThan(500);

    const waited = await failure(petstore.requests.get(`never-made-${kind}`, { waitMs: 400 }));
    expect(waited).toMatchObject({ status: 404, code: 'REQUEST_NOT_FOUND' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await expect(petstore.requests.get('any', { waitMs: -1 })).rejects.toThrow('waitMs must be 0 or more (got -1).');
  });

  it('stops waiting for an entry when the call’s signal cancels it', async () => {
    const cancel = new AbortController();
    const lookUp = client().requests.get(`never-made-${kind}-cancelled`, { waitMs: 10_000, signal: cancel.signal });
    setTimeout(() => cancel.abort(), 200);
    const started = Date.now();
    expect(await failure(lookUp)).toBeInstanceOf(AbortError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('lists newest first, page by page, by status (a code or a class), operation and Idempotency-Key', async () => {
    const petstore = client();
    const missing = [];
    for (let i = 0; i < 5; i++) {
      const id = `sdk-requests-${kind}-missing-${i}`;
      missing.push((await failure(petstore.store.orders.get(987_000 + i, { extraHeaders: { 'X-Request-Id': id } }))).requestId);
    }
    expect(missing).toEqual([0, 1, 2, 3, 4].map((i) => `sdk-requests-${kind}-missing-${i}`));
    const idempotencyKey = `sdk-requests-${kind}-key`;
    const first = await petstore.pets.create({ name: 'Logged', categoryId: 2 }, { idempotencyKey });
    const replay = await petstore.pets.create({ name: 'Logged', categoryId: 2 }, { idempotencyKey }).withResponse();
    await petstore.requests.get(replay.requestId!, { waitMs: 2_000 });
    await petstore.requests.get(missing[4]!, { waitMs: 2_000 });

    const page = await petstore.requests.list({ operation: 'getOrder', limit: 2 });
    expect([ids(page.data), page.hasNextPage()]).toEqual([missing.slice(3).reverse(), true]);
    expect(ids(await all(petstore.requests.list({ operation: 'getOrder', limit: 2 })))).toEqual([...missing].reverse());
    expect(ids(await all(petstore.requests.list({ status: 404, operation: 'getOrder' })))).toEqual([...missing].reverse());
    expect(ids(await all(petstore.requests.list({ status: '4xx', operation: 'getOrder' })))).toHaveLength(5);
    expect(await all(petstore.requests.list({ status: '2xx', operation: 'getOrder' }))).toEqual([]);
    const keyed = await all(petstore.requests.list({ idempotencyKey }));
    expect(keyed.map(({ id, status, replayed }) => ({ id, status, replayed }))).toEqual([
      { id: replay.requestId, status: 201, replayed: true },
      { id: first._request_id, status: 201, replayed: false },
    ]);
    const refused = await failure(petstore.requests.list({ status: '4x' }));
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('names the request that caused an event, on events.list and on a delivery webhooks.verify checked', async () => {
    const petstore = client();
    const path = `/requests-${kind}`;
    const endpoint = await petstore.webhookEndpoints.create({ url: `${receiver.url}${path}`, events: ['pet.created'] });
    try {
      const idempotencyKey = `sdk-requests-${kind}-event`;
      const pet = await petstore.pets.create({ name: `Caused ${kind}`, categoryId: 4 }, { idempotencyKey });
      const [delivery] = await receiver.waitFor(path, 1);
      const event: WebhookEvent = await webhooks.verify(delivery.body, delivery.headers, endpoint.secret);
      expect(event.request).toEqual({ id: pet._request_id, idempotencyKey });
      let listed;
      for await (const candidate of petstore.events.list({ type: 'pet.created' }))
        if (candidate.data.object.id === pet.id) listed = candidate;
      expect(listed?.request).toEqual({ id: pet._request_id, idempotencyKey });
      // The request it names is in the log.
      expect(await petstore.requests.get(event.request!.id, { waitMs: 2_000 })).toMatchObject({ operation: 'createPet', status: 201 });
    } finally {
      await petstore.webhookEndpoints.delete(endpoint.id);
    }
  });

  it('reads an event recorded before 1.5.0, which names no request, without one', async () => {
    const before = { id: 'evt_before_requests', type: 'pet.created', createdAt: '2026-11-20T10:00:00.000Z', apiVersion: '1.4.0' };
    const older = { ...before, data: { object: { id: 7, name: 'Old', categoryId: 2, status: 'available' } } };
    proxy = await startFaultProxy(baseUrl.replace(/\/v1$/, ''), () => ({ status: 200, body: [older] }));
    const [event] = (await client({ baseUrl: `${proxy.url}/v1` }).events.list()).data;
    expect(event.request).toBeUndefined();
    expect(event).toEqual(older);
  });
});
