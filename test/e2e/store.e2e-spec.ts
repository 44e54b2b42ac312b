import { beforeAll, describe, expect, it } from '@jest/globals';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';
import * as expected from '../support/resources.js';

describe.each(DATABASE_KINDS)('the store on %s', (kind) => {
  const ctx = useApp(kind);
  const placeOrder = (body: unknown) =>
    ctx
      .http()
      .post('/v1/store/orders')
      .set(AUTH)
      .send(body as object);
  /** An available pet: an order holds its pet, so each order here gets one of its own. */
  const freshPet = async (): Promise<number> =>
    (await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Orderable', categoryId: 1 })).body.id;

  describe('placeOrder', () => {
    it('answers 201 with the order, defaults applied, and its Location', async () => {
      const petId = await freshPet();
      const response = await placeOrder({ petId, quantity: 2 });
      expect(response.status).toBe(201);
      // metadata from 1.5.0: {} when none.
      expect(response.body).toEqual(expected.order({ id: expect.any(Number), petId, quantity: 2, status: 'placed', complete: false }));
      expect(response.text).not.toContain('shipDate');
      expect(response.headers.location).toMatch(new RegExp(`/v1/store/orders/${response.body.id}$`));
      expect((await ctx.http().get(new URL(response.headers.location).pathname).set(AUTH)).body).toEqual(response.body);
    });

    it('keeps every field given, with shipDate answered in UTC to the millisecond', async () => {
      const petId = await freshPet();
      const response = await placeOrder({
        petId,
        quantity: 1000,
        status: 'approved',
        shipDate: '2026-12-01T10:30:15.250+02:00',
        complete: false,
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual(
        expected.order({
          id: expect.any(Number),
          petId,
          quantity: 1000,
          status: 'approved',
          shipDate: '2026-12-01T08:30:15.250Z',
          complete: false,
        }),
      );
      expect((await ctx.http().get(`/v1/store/orders/${response.body.id}`).set(AUTH)).body).toEqual(response.body);
    });

    it('holds the pet it orders (pending), or sells it when placed delivered', async () => {
      const held = await freshPet();
      await placeOrder({ petId: held, quantity: 1 });
      expect((await ctx.http().get(`/v1/pets/${held}`).set(AUTH)).body.status).toBe('pending');
      const sold = await freshPet();
      await placeOrder({ petId: sold, quantity: 1, status: 'delivered', complete: true });
      expect((await ctx.http().get(`/v1/pets/${sold}`).set(AUTH)).body.status).toBe('sold');
    });

    it('refuses complete unless it is what the status makes it: complete belongs to delivery (1.4.0 kept it, so a cancelled order read complete)', async () => {
      const petId = await freshPet();
      for (const body of [
        { petId, quantity: 1, complete: true },
        { petId, quantity: 1, status: 'approved', complete: true },
        { petId, quantity: 1, status: 'delivered', complete: false },
      ]) {
        const refused = await placeOrder(body);
        expectError(refused, 400, 'VALIDATION_FAILED');
        expect(refused.body.message).toBe(
          'complete must be true only for an order placed delivered (complete belongs to delivery): leave it out.',
        );
      }
      expect((await ctx.http().get(`/v1/pets/${petId}`).set(AUTH)).body.status).toBe('available');
      const placed = await placeOrder({ petId, quantity: 1, complete: false });
      expect(placed.body.complete).toBe(false);
      const cancelled = await ctx.http().post(`/v1/store/orders/${placed.body.id}/cancel`).set(AUTH);
      expect(cancelled.body).toMatchObject({ status: 'cancelled', complete: false });
    });

    it('offers a new order only the statuses it may be placed with, in an enum of its own', async () => {
      const { components } = (await ctx.http().get('/v1/openapi.json')).body;
      expect(components.schemas.NewOrder.properties.status).toEqual({ $ref: '#/components/schemas/NewOrderStatus' });
      expect(components.schemas.NewOrderStatus).toMatchObject({
        default: 'placed',
        allOf: [{ $ref: '#/components/schemas/PlaceableOrderStatus' }],
      });
      expect(components.schemas.PlaceableOrderStatus.enum).toEqual(['placed', 'approved', 'delivered']);
      expect(components.schemas.OrderStatus.enum).toEqual(['placed', 'approved', 'delivered', 'cancelled']);
    });

    it('answers PET_NOT_FOUND for a pet that does not exist, and stores nothing', async () => {
      const before = (await ctx.http().get('/v1/store/orders?limit=100').set(AUTH)).body.length;
      expectError(await placeOrder({ petId: 987654321, quantity: 1 }), 404, 'PET_NOT_FOUND');
      expect((await ctx.http().get('/v1/store/orders?limit=100').set(AUTH)).body.length).toBe(before);
    });

    it.each([
      ['petId', { quantity: 1 }],
      ['petId', { petId: '1', quantity: 1 }],
      ['petId', { petId: 0, quantity: 1 }],
      ['petId', { petId: 1.5, quantity: 1 }],
      ['quantity', { petId: 1 }],
      ['quantity', { petId: 1, quantity: 0 }],
      ['quantity', { petId: 1, quantity: 1001 }],
      ['quantity', { petId: 1, quantity: 2.5 }],
      ['quantity', { petId: 1, quantity: '3' }],
      ['status', { petId: 1, quantity: 1, status: 'shipped' }],
      ['status', { petId: 1, quantity: 1, status: null }],
      ['shipDate', { petId: 1, quantity: 1, shipDate: 'tomorrow' }],
      ['shipDate', { petId: 1, quantity: 1, shipDate: '2026-12-01' }],
      ['shipDate', { petId: 1, quantity: 1, shipDate: '2026-12-01 10:00:00Z' }],
      ['shipDate', { petId: 1, quantity: 1, shipDate: '2026-12-01T10:00:00' }],
      ['shipDate', { petId: 1, quantity: 1, shipDate: '2026-02-30T10:00:00Z' }],
      ['shipDate', { petId: 1, quantity: 1, shipDate: '2026-12-01T24:00:00Z' }],
      ['shipDate', { petId: 1, quantity: 1, shipDate: '2016-12-31T23:59:60Z' }],
      ['shipDate', { petId: 1, quantity: 1, shipDate: '0999-12-31T00:00:00Z' }],
      ['shipDate', { petId: 1, quantity: 1, shipDate: 1764580000000 }],
      ['complete', { petId: 1, quantity: 1, complete: 'true' }],
      ['complete', { petId: 1, quantity: 1, complete: 1 }],
      ['id', { id: 5, petId: 1, quantity: 1 }],
      ['pet', { petId: 1, quantity: 1, pet: { id: 1 } }],
    ])('rejects a bad %s, naming it', async (field, body) => {
      const response = await placeOrder(body);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(new RegExp(`\\b${field}\\b`));
    });

    it('names every bad field at once', async () => {
      const response = await placeOrder({ petId: 'x', quantity: 0, status: 'lost', shipDate: 'soon', complete: 'no' });
      expectError(response, 400, 'VALIDATION_FAILED');
      for (const field of ['petId', 'quantity', 'status', 'shipDate', 'complete'])
        expect(response.body.message).toMatch(new RegExp(`\\b${field}\\b`));
    });

    it('replays a retry with the same Idempotency-Key and places nothing more', async () => {
      const petId = await freshPet();
      const body = { petId, quantity: 7 };
      const first = await ctx.http().post('/v1/store/orders').set(AUTH).set('Idempotency-Key', 'order-7').send(body);
      const retry = await ctx.http().post('/v1/store/orders').set(AUTH).set('Idempotency-Key', 'order-7').send(body);
      expect(first.status).toBe(201);
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.headers.location).toBe(first.headers.location);
      const other = await ctx.http().post('/v1/store/orders').set(AUTH).set('Idempotency-Key', 'order-7').send({ petId, quantity: 8 });
      expectError(other, 422, 'IDEMPOTENCY_KEY_REUSED');
      const all = (await ctx.http().get('/v1/store/orders?limit=100').set(AUTH)).body;
      expect(all.filter((order: { quantity: number }) => order.quantity === 7)).toHaveLength(1);
    });

    it('frees the Idempotency-Key when the pet does not exist, so a corrected retry runs', async () => {
      const key = { 'Idempotency-Key': 'order-missing-pet' };
      expectError(
        await ctx.http().post('/v1/store/orders').set(AUTH).set(key).send({ petId: 987654321, quantity: 1 }),
        404,
        'PET_NOT_FOUND',
      );
      expect(
        (
          await ctx
            .http()
            .post('/v1/store/orders')
            .set(AUTH)
            .set(key)
            .send({ petId: await freshPet(), quantity: 1 })
        ).status,
      ).toBe(201);
    });
  });

  describe('getOrder', () => {
    it('answers ORDER_NOT_FOUND for an id no order has', async () => {
      expectError(await ctx.http().get('/v1/store/orders/987654321').set(AUTH), 404, 'ORDER_NOT_FOUND');
      expectError(await ctx.http().get('/v1/store/orders/9007199254740991').set(AUTH), 404, 'ORDER_NOT_FOUND');
    });

    it.each(['abc', '0', '-2', '1.5', '9007199254740992', '9223372036854775808'])(
      'answers VALIDATION_FAILED for orderId %p',
      async (orderId) => {
        const response = await ctx.http().get(`/v1/store/orders/${orderId}`).set(AUTH);
        expectError(response, 400, 'VALIDATION_FAILED');
        expect(response.body.message).toMatch(/\borderId\b/);
      },
    );
  });

  describe('listOrders', () => {
    beforeAll(async () => {
      for (let i = 0; i < 12; i++) await placeOrder({ petId: await freshPet(), quantity: 1 + i, status: i % 2 ? 'approved' : 'delivered' });
    });

    it('pages through every order once, in id order, with the Link header', async () => {
      const seen: number[] = [];
      let url: string | undefined = '/v1/store/orders?limit=5';
      while (url) {
        const response = await ctx.http().get(url).set(AUTH);
        expect(response.status).toBe(200);
        seen.push(...response.body.map((order: { id: number }) => order.id));
        const next = /<([^>]+)>; rel="next"/.exec(response.headers.link ?? '');
        url = next ? `${new URL(next[1]).pathname}${new URL(next[1]).search}` : undefined;
      }
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.length).toBeGreaterThanOrEqual(12);
    });

    it('filters by status and keeps the filter in the next link', async () => {
      const first = await ctx.http().get('/v1/store/orders?status=approved&limit=2').set(AUTH);
      expect(first.body.every((order: { status: string }) => order.status === 'approved')).toBe(true);
      expect(new URL(/<([^>]+)>/.exec(first.headers.link)![1]).searchParams.get('status')).toBe('approved');
    });

    it.each(['limit=0', 'limit=101', 'status=shipped', 'cursor=nonsense'])('rejects %s with VALIDATION_FAILED', async (query) => {
      expectError(await ctx.http().get(`/v1/store/orders?${query}`).set(AUTH), 400, 'VALIDATION_FAILED');
    });

    it('refuses a cursor from the pets listing', async () => {
      await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Second', categoryId: 1 });
      const pets = await ctx.http().get('/v1/pets?limit=1').set(AUTH);
      const cursor = new URL(/<([^>]+)>/.exec(pets.headers.link)![1]).searchParams.get('cursor')!;
      const response = await ctx
        .http()
        .get(`/v1/store/orders?cursor=${encodeURIComponent(cursor)}`)
        .set(AUTH);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\bcursor\b/);
    });
  });

  describe('getInventory', () => {
    it('counts pets by status, every status always present', async () => {
      const before = (await ctx.http().get('/v1/store/inventory').set(AUTH)).body;
      expect(Object.keys(before).sort()).toEqual(['available', 'pending', 'sold']);
      await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Sold one', categoryId: 1, status: 'sold' });
      await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Pending one', categoryId: 1, status: 'pending' });
      const after = (await ctx.http().get('/v1/store/inventory').set(AUTH)).body;
      expect(after).toEqual({ available: before.available, pending: before.pending + 1, sold: before.sold + 1 });
    });
  });

  it.each([
    ['get', '/v1/store/orders'],
    ['post', '/v1/store/orders'],
    ['get', '/v1/store/orders/1'],
    ['patch', '/v1/store/orders/1'],
    ['post', '/v1/store/orders/1/cancel'],
    ['get', '/v1/store/inventory'],
  ] as const)('%s %s needs a key', async (method, path) => {
    expectError(await ctx.http()[method](path), 401, 'API_KEY_MISSING');
  });
});

describe('the store on an empty database', () => {
  const ctx = useApp('sqlite');

  it('answers an inventory of zeros and no orders', async () => {
    expect((await ctx.http().get('/v1/store/inventory').set(AUTH)).body).toEqual({ available: 0, pending: 0, sold: 0 });
    expect((await ctx.http().get('/v1/store/orders').set(AUTH)).body).toEqual([]);
  });
});
