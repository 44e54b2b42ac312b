import { beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { text } from '../../src/database/columns.js';
import { Sql } from '../../src/database/sql.js';
import { Environment } from '../../src/environments/environment.js';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';
import * as expected from '../support/resources.js';
import { createSandbox, type TestSandbox } from '../support/sandbox-keys.js';

type Auth = { readonly Authorization: string };

/**
 * Pets, orders, their metadata, the inventory and the events they record, in two environments at
 * once (live and a sandbox, issue 58): each sees only its own, an id of the other is a 404 exactly
 * as one that never existed, every answer says `livemode`, and one id sequence serves both.
 */
describe.each(DATABASE_KINDS)('pets and orders confined to their environment on %s', (kind) => {
  const ctx = useApp(kind);
  let sandbox: TestSandbox;
  /** Another sandbox: sandboxes are no more one another's than live's. */
  let other: TestSandbox;
  const LIVE: Auth = AUTH;
  const SANDBOX = (): Auth => sandbox.auth;

  const createPet = async (auth: Auth, body: object): Promise<request.Response> => {
    const response = await ctx.http().post('/v1/pets').set(auth).send(body);
    expect(response.status).toBe(201);
    return response;
  };
  const placeOrder = async (auth: Auth, petId: number, body: object = {}): Promise<request.Response> => {
    const response = await ctx
      .http()
      .post('/v1/store/orders')
      .set(auth)
      .send({ petId, quantity: 1, ...body });
    expect(response.status).toBe(201);
    return response;
  };
  const ids = (response: request.Response) => (response.body as { id: number }[]).map(({ id }) => id);
  /** What the environment's events recorded, as stored (the events listing belongs to the webhooks' part of issue 58). */
  const storedEvents = (environment: Environment) =>
    ctx.app
      .get(Sql)
      .rows('SELECT payload FROM events WHERE environment = ? ORDER BY id', [environment.id], (row) => JSON.parse(text(row.payload)));

  beforeAll(async () => {
    sandbox = await createSandbox(ctx.app, 'confinement');
    other = await createSandbox(ctx.app, 'another');
  });

  it('answers livemode last: true for a live pet and order, false for a sandbox one', async () => {
    const live = await createPet(LIVE, { name: 'Live Rex', categoryId: 1 });
    expect(live.body).toEqual(expected.pet({ id: expect.any(Number), name: 'Live Rex', categoryId: 1 }));
    expect(Object.keys(live.body).at(-1)).toBe('livemode');
    expect(live.body.livemode).toBe(true);
    const test = await createPet(SANDBOX(), { name: 'Test Rex', categoryId: 1 });
    expect(test.body).toEqual(expected.pet({ id: expect.any(Number), name: 'Test Rex', categoryId: 1, livemode: false }));
    expect(Object.keys(test.body).at(-1)).toBe('livemode');

    const liveOrder = await placeOrder(LIVE, live.body.id);
    expect(liveOrder.body).toEqual(expected.order({ id: expect.any(Number), petId: live.body.id, quantity: 1 }));
    expect(Object.keys(liveOrder.body).at(-1)).toBe('livemode');
    const testOrder = await placeOrder(SANDBOX(), test.body.id);
    expect(testOrder.body).toEqual(expected.order({ id: expect.any(Number), petId: test.body.id, quantity: 1, livemode: false }));
    expect(Object.keys(testOrder.body).at(-1)).toBe('livemode');

    // Read back, listed, patched and cancelled: the same livemode in every answer.
    const reads = [
      [LIVE, `/v1/pets/${live.body.id}`, true],
      [SANDBOX(), `/v1/pets/${test.body.id}`, false],
      [LIVE, `/v1/store/orders/${liveOrder.body.id}`, true],
      [SANDBOX(), `/v1/store/orders/${testOrder.body.id}`, false],
    ] as const;
    for (const [auth, path, livemode] of reads) expect((await ctx.http().get(path).set(auth)).body.livemode).toBe(livemode);
    for (const [auth, livemode] of [
      [LIVE, true],
      [SANDBOX(), false],
    ] as const) {
      const pets = await ctx.http().get('/v1/pets?limit=100').set(auth);
      expect(pets.body.every((pet: { livemode: boolean }) => pet.livemode === livemode)).toBe(true);
      const orders = await ctx.http().get('/v1/store/orders?limit=100').set(auth);
      expect(orders.body.every((order: { livemode: boolean }) => order.livemode === livemode)).toBe(true);
    }
    const renamed = await ctx.http().patch(`/v1/pets/${test.body.id}`).set(SANDBOX()).send({ name: 'Test Rex II' });
    expect(renamed.body).toMatchObject({ name: 'Test Rex II', livemode: false });
    const cancelled = await ctx.http().post(`/v1/store/orders/${testOrder.body.id}/cancel`).set(SANDBOX());
    expect(cancelled.body).toMatchObject({ status: 'cancelled', livemode: false });
  });

  it('refuses livemode in a create or a patch: the service gives it', async () => {
    expectError(
      await ctx.http().post('/v1/pets').set(SANDBOX()).send({ name: 'Faker', categoryId: 1, livemode: true }),
      400,
      'VALIDATION_FAILED',
    );
    const pet = await createPet(SANDBOX(), { name: 'Honest', categoryId: 1 });
    expectError(await ctx.http().patch(`/v1/pets/${pet.body.id}`).set(SANDBOX()).send({ livemode: true }), 400, 'VALIDATION_FAILED');
    expectError(
      await ctx.http().post('/v1/store/orders').set(SANDBOX()).send({ petId: pet.body.id, quantity: 1, livemode: true }),
      400,
      'VALIDATION_FAILED',
    );
    expect((await ctx.http().get(`/v1/pets/${pet.body.id}`).set(SANDBOX())).body.livemode).toBe(false);
  });

  it('answers 404 for a pet of another environment, exactly as for one that never existed, and changes nothing of it', async () => {
    const live = await createPet(LIVE, { name: 'Live only', categoryId: 2 });
    const test = await createPet(SANDBOX(), { name: 'Sandbox only', categoryId: 2 });
    const never = 9_007_199_254_740_000;
    const notFound = (await ctx.http().get(`/v1/pets/${never}`).set(LIVE)).body.message as string;
    for (const [auth, pet] of [
      [SANDBOX(), live.body],
      [other.auth, live.body],
      [LIVE, test.body],
      [other.auth, test.body],
    ] as const) {
      const attempts = [
        ctx.http().get(`/v1/pets/${pet.id}`).set(auth),
        ctx.http().patch(`/v1/pets/${pet.id}`).set(auth).send({ name: 'Taken over', status: 'sold' }),
        ctx.http().delete(`/v1/pets/${pet.id}`).set(auth),
      ];
      for (const attempt of attempts) {
        const response = await attempt;
        expectError(response, 404, 'PET_NOT_FOUND');
        expect(response.body.message).toBe(notFound.replace(String(never), String(pet.id)));
      }
    }
    expect((await ctx.http().get(`/v1/pets/${live.body.id}`).set(LIVE)).body).toEqual(live.body);
    expect((await ctx.http().get(`/v1/pets/${test.body.id}`).set(SANDBOX())).body).toEqual(test.body);
  });

  it('answers 404 for an order of another environment (get, patch, move, cancel), and moves neither it nor its pet', async () => {
    const livePet = await createPet(LIVE, { name: 'Held live', categoryId: 3 });
    const liveOrder = await placeOrder(LIVE, livePet.body.id);
    const testPet = await createPet(SANDBOX(), { name: 'Held in the sandbox', categoryId: 3 });
    const testOrder = await placeOrder(SANDBOX(), testPet.body.id);
    for (const [auth, order] of [
      [SANDBOX(), liveOrder.body],
      [other.auth, liveOrder.body],
      [LIVE, testOrder.body],
    ] as const) {
      const attempts = [
        ctx.http().get(`/v1/store/orders/${order.id}`).set(auth),
        ctx
          .http()
          .patch(`/v1/store/orders/${order.id}`)
          .set(auth)
          .send({ metadata: { taken: 'over' } }),
        ctx.http().patch(`/v1/store/orders/${order.id}`).set(auth).send({ status: 'approved' }),
        ctx.http().post(`/v1/store/orders/${order.id}/cancel`).set(auth),
      ];
      for (const attempt of attempts) {
        const response = await attempt;
        expectError(response, 404, 'ORDER_NOT_FOUND');
        expect(response.body.message).toContain(String(order.id));
      }
    }
    expect((await ctx.http().get(`/v1/store/orders/${liveOrder.body.id}`).set(LIVE)).body).toEqual(liveOrder.body);
    expect((await ctx.http().get(`/v1/store/orders/${testOrder.body.id}`).set(SANDBOX())).body).toEqual(testOrder.body);
    expect((await ctx.http().get(`/v1/pets/${livePet.body.id}`).set(LIVE)).body.status).toBe('pending');
    expect((await ctx.http().get(`/v1/pets/${testPet.body.id}`).set(SANDBOX())).body.status).toBe('pending');
  });

  it('refuses to order a pet of another environment (404 PET_NOT_FOUND), holding nothing', async () => {
    const livePet = await createPet(LIVE, { name: 'Not for sandboxes', categoryId: 4 });
    const testPet = await createPet(SANDBOX(), { name: 'Not for live', categoryId: 4 });
    const liveOrdersBefore = ids(await ctx.http().get('/v1/store/orders?limit=100').set(LIVE));
    for (const [auth, petId] of [
      [SANDBOX(), livePet.body.id],
      [LIVE, testPet.body.id],
      [other.auth, testPet.body.id],
    ] as const) {
      const response = await ctx.http().post('/v1/store/orders').set(auth).send({ petId, quantity: 1 });
      expectError(response, 404, 'PET_NOT_FOUND');
      expect(response.body.message).toBe(`No pet has id ${petId}.`);
    }
    expect((await ctx.http().get(`/v1/pets/${livePet.body.id}`).set(LIVE)).body.status).toBe('available');
    expect((await ctx.http().get(`/v1/pets/${testPet.body.id}`).set(SANDBOX())).body.status).toBe('available');
    expect(ids(await ctx.http().get('/v1/store/orders?limit=100').set(LIVE))).toEqual(liveOrdersBefore);
    expect(ids(await ctx.http().get('/v1/store/orders?limit=100').set(other.auth))).toEqual([]);
  });

  it('lists only its own pets and orders, by status and by metadata pair too; what a sandbox makes live never sees', async () => {
    const pair = { team: `confined-${kind}` };
    const made: Record<'live' | 'sandbox', { pets: number[]; sold: number[]; orders: number[]; approved: number[] }> = {
      live: { pets: [], sold: [], orders: [], approved: [] },
      sandbox: { pets: [], sold: [], orders: [], approved: [] },
    };
    // Interleaved, so that each environment's rows sit between the other's.
    for (let i = 0; i < 3; i++) {
      for (const [where, auth] of [
        ['live', LIVE],
        ['sandbox', SANDBOX()],
      ] as const) {
        const pet = await createPet(auth, { name: `${where} ${i}`, categoryId: 5, metadata: pair });
        made[where].pets.push(pet.body.id);
        const sold = await createPet(auth, { name: `${where} sold ${i}`, categoryId: 5, status: 'sold', metadata: pair });
        made[where].sold.push(sold.body.id);
        const order = await placeOrder(auth, pet.body.id, { status: 'approved', metadata: pair });
        made[where].orders.push(order.body.id);
        made[where].approved.push(order.body.id);
      }
    }
    const filter = `metadata[team]=${pair.team}`;
    for (const [where, auth] of [
      ['live', LIVE],
      ['sandbox', SANDBOX()],
    ] as const) {
      const own = made[where];
      const allPets = ids(await ctx.http().get('/v1/pets?limit=100').set(auth));
      const theirs = made[where === 'live' ? 'sandbox' : 'live'];
      expect(allPets).toEqual(expect.arrayContaining([...own.pets, ...own.sold]));
      expect(allPets.filter((id) => [...theirs.pets, ...theirs.sold].includes(id))).toEqual([]);
      expect(ids(await ctx.http().get(`/v1/pets?${filter}&limit=100`).set(auth))).toEqual([...own.pets, ...own.sold].sort((a, b) => a - b));
      expect(ids(await ctx.http().get(`/v1/pets?status=sold&${filter}&limit=100`).set(auth))).toEqual(own.sold);
      const soldPets = ids(await ctx.http().get('/v1/pets?status=sold&limit=100').set(auth));
      expect(soldPets).toEqual(expect.arrayContaining(own.sold));
      expect(soldPets.filter((id) => theirs.sold.includes(id))).toEqual([]);

      expect(ids(await ctx.http().get(`/v1/store/orders?${filter}&limit=100`).set(auth))).toEqual(own.orders);
      expect(ids(await ctx.http().get(`/v1/store/orders?status=approved&${filter}&limit=100`).set(auth))).toEqual(own.approved);
      const approved = ids(await ctx.http().get('/v1/store/orders?status=approved&limit=100').set(auth));
      expect(approved).toEqual(expect.arrayContaining(own.approved));
      expect(approved.filter((id) => theirs.approved.includes(id))).toEqual([]);
      const orders = ids(await ctx.http().get('/v1/store/orders?limit=100').set(auth));
      expect(orders.filter((id) => theirs.orders.includes(id))).toEqual([]);
    }
    // A sandbox made none of them: its listings are empty.
    for (const path of ['/v1/pets', `/v1/pets?${filter}`, '/v1/pets?status=sold', '/v1/store/orders', `/v1/store/orders?${filter}`])
      expect((await ctx.http().get(path).set(other.auth)).body).toEqual([]);
  });

  it('pages through its own pets only, a page after another of the environment', async () => {
    const fresh = await createSandbox(ctx.app, 'paged');
    const own: number[] = [];
    for (let i = 0; i < 5; i++) {
      own.push((await createPet(fresh.auth, { name: `paged ${i}`, categoryId: 6 })).body.id);
      await createPet(LIVE, { name: `between ${i}`, categoryId: 6 });
    }
    const seen: number[] = [];
    let path: string | undefined = '/v1/pets?limit=2';
    while (path) {
      const response = await ctx.http().get(path).set(fresh.auth);
      expect(response.status).toBe(200);
      seen.push(...ids(response));
      const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.link ?? '');
      path = next ? new URL(next[1]).pathname + new URL(next[1]).search : undefined;
    }
    expect(seen).toEqual(own);
  });

  it('counts the inventory of its own environment only', async () => {
    const fresh = await createSandbox(ctx.app, 'inventory');
    const before = (await ctx.http().get('/v1/store/inventory').set(LIVE)).body;
    expect((await ctx.http().get('/v1/store/inventory').set(fresh.auth)).body).toEqual({ available: 0, pending: 0, sold: 0 });
    await createPet(fresh.auth, { name: 'Counted', categoryId: 7 });
    await createPet(fresh.auth, { name: 'Counted sold', categoryId: 7, status: 'sold' });
    await createPet(fresh.auth, { name: 'Counted sold too', categoryId: 7, status: 'sold' });
    expect((await ctx.http().get('/v1/store/inventory').set(fresh.auth)).body).toEqual({ available: 1, pending: 0, sold: 2 });
    expect((await ctx.http().get('/v1/store/inventory').set(LIVE)).body).toEqual(before);
    await createPet(LIVE, { name: 'Counted live', categoryId: 7 });
    expect((await ctx.http().get('/v1/store/inventory').set(LIVE)).body).toEqual({ ...before, available: before.available + 1 });
    expect((await ctx.http().get('/v1/store/inventory').set(fresh.auth)).body).toEqual({ available: 1, pending: 0, sold: 2 });
  });

  it('records each event in its environment, livemode last in the envelope and in its object', async () => {
    const fresh = await createSandbox(ctx.app, 'events');
    const pet = await createPet(fresh.auth, { name: 'Eventful', categoryId: 8 });
    const order = await placeOrder(fresh.auth, pet.body.id);
    await ctx.http().post(`/v1/store/orders/${order.body.id}/cancel`).set(fresh.auth).expect(200);
    const gone = await createPet(fresh.auth, { name: 'Short-lived', categoryId: 8 });
    await ctx.http().delete(`/v1/pets/${gone.body.id}`).set(fresh.auth).expect(204);
    const events = await storedEvents(fresh.environment);
    expect(events.map(({ type }) => type)).toEqual([
      'pet.created',
      'order.placed',
      'pet.updated',
      'order.updated',
      'pet.updated',
      'pet.created',
      'pet.deleted',
    ]);
    for (const event of events) {
      expect(Object.keys(event).at(-1)).toBe('livemode');
      expect(event.livemode).toBe(false);
      expect(event.data.object.livemode).toBe(false);
    }
    expect(events[0].data.object).toEqual(pet.body);

    const livePet = await createPet(LIVE, { name: 'Eventful live', categoryId: 8 });
    const liveEvents = await storedEvents(Environment.LIVE);
    const created = liveEvents.find((event) => event.type === 'pet.created' && event.data.object.id === livePet.body.id);
    expect(created).toMatchObject({ livemode: true, data: { object: { ...livePet.body, livemode: true } } });
    expect(Object.keys(created ?? {}).at(-1)).toBe('livemode');
    expect(liveEvents.every((event) => event.livemode === true)).toBe(true);
    // The sandbox's events are its own: none of them is live's.
    expect(liveEvents.filter((event) => events.some((own) => own.id === event.id))).toEqual([]);
  });

  it('shares one id sequence: a sandbox pet or order never has a live one’s id', async () => {
    const live = await createPet(LIVE, { name: 'First', categoryId: 9 });
    const test = await createPet(SANDBOX(), { name: 'Second', categoryId: 9 });
    const liveAgain = await createPet(LIVE, { name: 'Third', categoryId: 9 });
    expect(test.body.id).toBeGreaterThan(live.body.id);
    expect(liveAgain.body.id).toBeGreaterThan(test.body.id);
    expectError(await ctx.http().get(`/v1/pets/${test.body.id}`).set(LIVE), 404, 'PET_NOT_FOUND');
    const liveIds = ids(await ctx.http().get('/v1/pets?limit=100').set(LIVE));
    const sandboxIds = ids(await ctx.http().get('/v1/pets?limit=100').set(SANDBOX()));
    expect(liveIds.filter((id) => sandboxIds.includes(id))).toEqual([]);
    const liveOrder = await placeOrder(LIVE, liveAgain.body.id);
    const testOrder = await placeOrder(SANDBOX(), test.body.id);
    expect(testOrder.body.id).toBeGreaterThan(liveOrder.body.id);
    expectError(await ctx.http().get(`/v1/store/orders/${testOrder.body.id}`).set(LIVE), 404, 'ORDER_NOT_FOUND');
  });
});
