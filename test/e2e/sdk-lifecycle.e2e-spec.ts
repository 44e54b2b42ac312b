import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import {
  ConflictError,
  type Fetch,
  type Logger,
  NOT_MODIFIED,
  NotFoundError,
  PetStore,
  type PetStoreOptions,
  PreconditionFailedError,
  webhooks,
  type WebhookEvent,
} from '../../clients/typescript/src/index.js';
import { type FaultProxy, startFaultProxy } from './support/fault-proxy.js';
import { TEST_API_KEY, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.js';
import { failure } from './support/sdk-failure.js';
import * as expected from '../support/resources.js';

const ETAG = /^"[\w-]+"$/;

/**
 * The pet store's lifecycle in the TypeScript SDK (issue 47 part 5), against the real service:
 * pets.update and pets.delete, store.orders.update and cancel, each held to an ETag by `ifMatch`
 * and retried safely by its Idempotency-Key; the ETag of every pet and order as `_etag`; a 304 to
 * `ifNoneMatch` answered as NOT_MODIFIED, never an error nor a retry; and the new events, typed.
 */
describe.each(DATABASE_KINDS)('the TypeScript SDK’s lifecycle on %s', (kind) => {
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
  const behindFaults = async (plan: Parameters<typeof startFaultProxy>[1], options: PetStoreOptions = {}) => {
    await proxy?.close();
    proxy = await startFaultProxy(baseUrl.replace(/\/v1$/, ''), plan);
    return client({ baseUrl: `${proxy.url}/v1`, ...options });
  };

  it('updates a pet by a merge patch held to the ETag it was read with, and refuses a stale one with the current ETag, changing nothing', async () => {
    const petstore = client();
    const rex = await petstore.pets.create({ name: 'Rex', categoryId: 3 });
    expect(rex._etag).toMatch(ETAG);
    expect(Object.keys(rex)).not.toContain('_etag');
    expect(JSON.parse(JSON.stringify(rex))).toEqual(expected.pet({ id: rex.id, name: 'Rex', categoryId: 3 }));

    const renamed = await petstore.pets.update(rex.id, { name: 'Rex II' }, { ifMatch: rex._etag }).withResponse();
    expect(renamed.status).toBe(200);
    expect(renamed.data).toEqual({ ...rex, name: 'Rex II' });
    expect(renamed.data._etag).toMatch(ETAG);
    expect(renamed.data._etag).not.toBe(rex._etag);
    expect(renamed.headers.get('etag')).toBe(renamed.data._etag);
    expect(renamed.data._request_id).toBe(renamed.requestId);

    const stale = await failure(petstore.pets.update(rex.id, { status: 'sold' }, { ifMatch: rex._etag }));
    expect(stale).toBeInstanceOf(PreconditionFailedError);
    expect(stale).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED', currentEtag: renamed.data._etag });
    expect(await petstore.pets.list({ status: 'sold' }).then((page) => page.data.map(({ id }) => id))).not.toContain(rex.id);

    const sold = await petstore.pets.update(rex.id, { status: 'sold' }, { ifMatch: (stale as PreconditionFailedError).currentEtag });
    expect(sold.status).toBe('sold');
    const final = await failure(petstore.pets.update(rex.id, { status: 'available' }, { ifMatch: '*' }));
    expect(final).toBeInstanceOf(ConflictError);
    expect(final).toMatchObject({ status: 409, code: 'INVALID_TRANSITION' });
  });

  it('moves an order placed → approved → delivered, which sells its pet, and cancels another, which frees its pet', async () => {
    const petstore = client();
    const pet = await petstore.pets.create({ name: `Moved ${kind}`, categoryId: 1 });
    const order = await petstore.store.orders.create({ petId: pet.id, quantity: 1 });
    expect(order._etag).toMatch(ETAG);
    expect((await failure(petstore.store.orders.create({ petId: pet.id, quantity: 1 }))).code).toBe('PET_NOT_AVAILABLE');
    expect((await failure(petstore.pets.update(pet.id, { status: 'available' }))).code).toBe('PET_HAS_OPEN_ORDER');

    const shipDate = '2026-12-01T09:30:00.000Z';
    const approved = await petstore.store.orders.update(order.id, { status: 'approved', shipDate }, { ifMatch: order._etag });
    expect(approved).toMatchObject({ status: 'approved', shipDate, complete: false });
    const stale = await failure(petstore.store.orders.update(order.id, { status: 'delivered' }, { ifMatch: order._etag }));
    expect(stale).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED', currentEtag: approved._etag });
    const delivered = await petstore.store.orders.update(order.id, { status: 'delivered' }, { ifMatch: approved._etag });
    expect(delivered).toMatchObject({ status: 'delivered', complete: true });
    const late = await failure(petstore.store.orders.cancel(order.id));
    expect(late).toBeInstanceOf(ConflictError);
    expect(late.code).toBe('INVALID_TRANSITION');
    // The deprecated getPet says what became of the pet.
    expect((await petstore.pets.get(pet.id)).status).toBe('sold');

    const other = await petstore.pets.create({ name: `Freed ${kind}`, categoryId: 1 });
    const held = await petstore.store.orders.create({ petId: other.id, quantity: 2 });
    const staleCancel = await failure(petstore.store.orders.cancel(held.id, { ifMatch: order._etag }));
    expect(staleCancel).toBeInstanceOf(PreconditionFailedError);
    const cancelled = await petstore.store.orders.cancel(held.id, { ifMatch: held._etag }).withResponse();
    expect(cancelled.status).toBe(200);
    expect(cancelled.data).toMatchObject({ id: held.id, status: 'cancelled' });
    expect(cancelled.headers.get('etag')).toBe(cancelled.data._etag);
    expect((await petstore.pets.get(other.id)).status).toBe('available');
  });

  it('deletes a pet no order names, held to its ETag, and refuses one that orders name', async () => {
    const petstore = client();
    const pet = await petstore.pets.create({ name: `Deleted ${kind}`, categoryId: 2 });
    const renamed = await petstore.pets.update(pet.id, { name: `Deleted ${kind} again` });
    expect(await failure(petstore.pets.delete(pet.id, { ifMatch: pet._etag }))).toMatchObject({
      status: 412,
      code: 'PRECONDITION_FAILED',
      currentEtag: renamed._etag,
    });
    const deleted = await petstore.pets.delete(pet.id, { ifMatch: renamed._etag }).withResponse();
    expect([deleted.status, deleted.data]).toEqual([204, undefined]);
    const gone = await failure(petstore.pets.get(pet.id));
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone.code).toBe('PET_NOT_FOUND');

    const ordered = await petstore.pets.create({ name: `Kept ${kind}`, categoryId: 2 });
    await petstore.store.orders.cancel((await petstore.store.orders.create({ petId: ordered.id, quantity: 1 })).id);
    const kept = await failure(petstore.pets.delete(ordered.id));
    expect(kept).toBeInstanceOf(ConflictError);
    expect(kept.code).toBe('PET_HAS_ORDERS');
  });

  it('answers NOT_MODIFIED to ifNoneMatch while a pet, an order or a page is as it was: once, logged, never an error', async () => {
    const lines: string[] = [];
    const logger: Logger = { debug: () => undefined, info: (line) => lines.push(line) };
    const petstore = await behindFaults(() => 'forward', { logger, logLevel: 'info' });
    const pet = await petstore.pets.create({ name: `Polled ${kind}`, categoryId: 5 });
    const order = await petstore.store.orders.create({ petId: pet.id, quantity: 1 });

    const same = await petstore.store.orders.get(order.id, { ifNoneMatch: order._etag }).withResponse();
    expect(same.data).toBe(NOT_MODIFIED);
    expect([same.status, same.headers.get('etag'), same.requestId]).toEqual([304, order._etag, expect.any(String)]);
    expect(await petstore.pets.get(pet.id, { ifNoneMatch: '"another"' })).toEqual({ ...pet, status: 'pending' });
    const heldPet = await petstore.pets.get(pet.id);
    expect(await petstore.pets.get(pet.id, { ifNoneMatch: heldPet._etag })).toBe(NOT_MODIFIED);
    expect(proxy!.seen.filter((request) => request.startsWith('GET'))).toHaveLength(4);
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^GET /store/orders/${order.id}: 304 Not Modified in \\d+ ms, request `)),
    );

    const approved = await petstore.store.orders.update(order.id, { status: 'approved' });
    const changed = await petstore.store.orders.get(order.id, { ifNoneMatch: order._etag });
    if (changed === NOT_MODIFIED) throw new Error('the order changed, yet was answered NOT_MODIFIED');
    expect(changed).toEqual(approved);
    expect(changed._etag).toBe(approved._etag);

    const query = { status: 'pending' as const, limit: 100 };
    const page = await petstore.pets.list(query);
    expect(page._etag).toMatch(ETAG);
    expect(await petstore.pets.list(query, { ifNoneMatch: page._etag })).toBe(NOT_MODIFIED);
    const conditional = await petstore.pets.list(query, { ifNoneMatch: page._etag }).withResponse();
    expect([conditional.status, conditional.data]).toEqual([304, NOT_MODIFIED]);
    await petstore.pets.update((await petstore.pets.create({ name: `Pending ${kind}`, categoryId: 5 })).id, { status: 'pending' });
    const fresh = await petstore.pets.list(query, { ifNoneMatch: page._etag });
    if (fresh === NOT_MODIFIED) throw new Error('a pet became pending, yet the page was answered NOT_MODIFIED');
    expect(fresh.data.length).toBe(page.data.length + 1);
    expect(fresh._etag).not.toBe(page._etag);
    // Asked without a tag to hold (a page whose ETag a proxy dropped), the conditional listing answers the page.
    const dropped: { _etag?: string } = {};
    const unconditional = await petstore.pets.list(query, { ifNoneMatch: dropped._etag });
    expect(unconditional !== NOT_MODIFIED && unconditional.data).toEqual(fresh.data);
  });

  it('retries a change and a cancel whose answers were lost under their Idempotency-Key: each carried out once', async () => {
    const petstore = await behindFaults((request, nth) => (request.method !== 'GET' && nth === 0 ? 'lose-answer' : 'forward'));
    const pet = await petstore.pets.create({ name: `Retried ${kind}`, categoryId: 1 });
    const order = await petstore.store.orders.create({ petId: pet.id, quantity: 1 });
    const approved = await petstore.store.orders.update(order.id, { status: 'approved' }, { ifMatch: order._etag }).withResponse();
    // The first attempt approved it; held to the ETag it had then, a retry without the key would be 412.
    expect(approved.data.status).toBe('approved');
    expect(approved.headers.get('idempotent-replayed')).toBe('true');
    const cancelled = await petstore.store.orders.cancel(order.id).withResponse();
    // The first attempt cancelled it; a retry without the key would be 409 INVALID_TRANSITION.
    expect([cancelled.data.status, cancelled.headers.get('idempotent-replayed')]).toEqual(['cancelled', 'true']);
    expect(proxy!.seen).toEqual([
      'POST /v1/pets',
      'POST /v1/pets',
      'POST /v1/store/orders',
      'POST /v1/store/orders',
      `PATCH /v1/store/orders/${order.id}`,
      `PATCH /v1/store/orders/${order.id}`,
      `POST /v1/store/orders/${order.id}/cancel`,
      `POST /v1/store/orders/${order.id}/cancel`,
    ]);

    // The caller's own key is the one sent: the same key again is the same change, answered again.
    const idempotencyKey = `sdk-rename-${kind}-${Date.now()}`;
    const first = await client().pets.update(pet.id, { name: 'Once' }, { idempotencyKey });
    const again = await client().pets.update(pet.id, { name: 'Once' }, { idempotencyKey }).withResponse();
    expect([again.data, again.headers.get('idempotent-replayed')]).toEqual([first, 'true']);
  });

  it('sets metadata on create, merges it by update (null removes a key, metadata: null every key), and lists by one pair on every page', async () => {
    const sent: string[] = [];
    const fetch: Fetch = (url, init) => {
      sent.push(decodeURIComponent(url.slice(baseUrl.length)));
      return globalThis.fetch(url, init as RequestInit);
    };
    const petstore = client({ fetch });
    const batch = `batch-${kind}-${Date.now()}`;
    const plain = await petstore.pets.create({ name: `Plain ${kind}`, categoryId: 1 });
    expect(plain.metadata).toEqual({});
    const pets = [];
    for (let i = 0; i < 5; i++)
      pets.push(await petstore.pets.create({ name: `Batch ${i}`, categoryId: 1, metadata: { batch, n: `${i}` } }));
    expect(pets[0].metadata).toEqual({ batch, n: '0' });

    const merged = await petstore.pets.update(pets[0].id, { metadata: { n: null, shelf: 'B2' } }, { ifMatch: pets[0]._etag });
    expect(merged.metadata).toEqual({ batch, shelf: 'B2' });
    expect((await petstore.pets.update(pets[0].id, { name: 'Renamed' })).metadata).toEqual({ batch, shelf: 'B2' });
    expect((await petstore.pets.update(pets[4].id, { metadata: null })).metadata).toEqual({});

    const walked = [];
    for await (const pet of petstore.pets.list({ metadata: { batch }, limit: 2 })) walked.push(pet.id);
    expect(walked).toEqual(pets.slice(0, 4).map(({ id }) => id));
    expect(sent.filter((request) => request.startsWith('/pets?'))).toEqual([
      `/pets?metadata[batch]=${batch}&limit=2`,
      expect.stringMatching(new RegExp(`^/pets\\?(?=.*metadata\\[batch\\]=${batch})(?=.*limit=2)(?=.*cursor=)`)),
    ]);
    const page = await petstore.pets.list({ status: 'available', metadata: { batch }, limit: 100 });
    expect(page.data.map(({ id }) => id)).toEqual(pets.slice(0, 4).map(({ id }) => id));
    expect(await petstore.pets.list({ status: 'available', metadata: { batch }, limit: 100 }, { ifNoneMatch: page._etag })).toBe(
      NOT_MODIFIED,
    );

    const order = await petstore.store.orders.create({ petId: pets[1].id, quantity: 1, metadata: { batch } });
    const cancelled = await petstore.store.orders.cancel(order.id);
    const noted = await petstore.store.orders.update(order.id, { metadata: { refund: 'RF-9' } }, { ifMatch: cancelled._etag });
    expect([noted.status, noted.metadata]).toEqual(['cancelled', { batch, refund: 'RF-9' }]);
    const orders = [];
    for await (const found of petstore.store.orders.list({ metadata: { refund: 'RF-9' } })) orders.push(found.id);
    expect(orders).toContain(order.id);
    expect(sent).toContain('/store/orders?metadata[refund]=RF-9');
  });

  it('reads a pet, an order and a page of a server before 1.5.0, which have no metadata, with metadata {}', async () => {
    const older = { id: 7, name: 'Old', categoryId: 2, status: 'available' };
    const olderOrder = { id: 9, petId: 7, quantity: 1, status: 'placed', complete: false };
    const petstore = await behindFaults((request) => {
      const path = new URL(request.url!, 'http://proxy').pathname;
      if (path === '/v1/pets') return { status: 200, body: [older] };
      return { status: 200, body: path.startsWith('/v1/store/orders') ? olderOrder : older, headers: { ETag: '"old"' } };
    });
    expect((await petstore.pets.list()).data).toEqual([expected.pet(older)]);
    const pet = await petstore.pets.update(7, { name: 'Old' });
    expect([pet, pet._etag]).toEqual([expected.pet(older), '"old"']);
    expect(await petstore.store.orders.get(9)).toEqual(expected.order(olderOrder));
    expect(await petstore.store.orders.cancel(9)).toEqual(expected.order(olderOrder));
  });

  it('hears pet.updated, order.updated and pet.deleted, typed, with what changed', async () => {
    const petstore = client();
    const path = `/lifecycle-${kind}`;
    const endpoint = await petstore.webhookEndpoints.create({
      url: `${receiver.url}${path}`,
      events: ['pet.updated', 'pet.deleted', 'order.updated'],
    });
    try {
      const pet = await petstore.pets.create({ name: `Heard ${kind}`, categoryId: 4 });
      const order = await petstore.store.orders.create({ petId: pet.id, quantity: 1, shipDate: '2026-12-01T09:30:00Z' });
      await petstore.store.orders.cancel(order.id);
      await petstore.pets.delete((await petstore.pets.create({ name: `Gone ${kind}`, categoryId: 4 })).id);
      // placeOrder holds the pet (pet.updated), cancelOrder moves the order (order.updated) and frees it (pet.updated), deletePet.
      const deliveries = await receiver.waitFor(path, 4);
      const events: WebhookEvent[] = await Promise.all(
        deliveries.map(({ body, headers }) => webhooks.verify(body, headers, endpoint.secret)),
      );
      const told: string[] = [];
      for (const event of events) {
        if (event.type === 'pet.updated') told.push(`pet ${event.data.object.status} was ${event.data.previousAttributes?.status}`);
        if (event.type === 'order.updated') told.push(`order ${event.data.object.status} was ${event.data.previousAttributes?.status}`);
        if (event.type === 'pet.deleted') told.push(`pet ${event.data.object.name} deleted`);
      }
      expect(told.sort()).toEqual([
        'order cancelled was placed',
        `pet Gone ${kind} deleted`,
        'pet available was pending',
        'pet pending was available',
      ]);
    } finally {
      await petstore.webhookEndpoints.delete(endpoint.id);
    }
  });
});
