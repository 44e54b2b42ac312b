import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { startCountingProxy, type CountingProxy } from './support/counting-proxy.js';
import { AUTH, expectError, startApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

type Body = Record<string, unknown>;

/**
 * A PATCH that changes nothing, or is refused, is decided on a read that holds nothing: 1.5.0 took
 * the row's lock for it (START TRANSACTION; SELECT … FOR UPDATE; COMMIT), a third of 1.4.0's
 * throughput (issue 56). A PATCH that changes something still holds the row it changes. On MySQL
 * the service talks to the database through a proxy that counts what it sends.
 */
describe.each(DATABASE_KINDS)('changes that change nothing, on %s', (kind) => {
  const context = {} as { database: TestDatabase; proxy?: CountingProxy; app: NestExpressApplication };
  beforeAll(async () => {
    context.database = await createTestDatabase(kind);
    let url = context.database.url;
    if (kind === 'mysql') {
      const direct = new URL(url);
      context.proxy = await startCountingProxy(direct);
      const viaProxy = new URL(url);
      viaProxy.host = `127.0.0.1:${context.proxy.port}`;
      url = viaProxy.href;
    }
    // Nothing else sends statements meanwhile: no deliverer's polls, no request log's batches.
    context.app = await startApp(
      { ...context.database, url },
      { WEBHOOK_DELIVERY: 'false', REQUEST_LOG: 'false', RATE_LIMIT_PER_MINUTE: '0' },
    );
  });
  afterAll(async () => {
    await context.app?.close();
    await context.proxy?.close();
    await context.database?.drop();
  });
  const http = () => request(context.app.getHttpServer());

  const createPet = async (body: Body = {}) => {
    const created = await http()
      .post('/v1/pets')
      .set(AUTH)
      .send({ name: 'Unchanged', categoryId: 3, ...body });
    expect(created.status).toBe(201);
    return created.body as { id: number; name: string; categoryId: number; status: string };
  };
  const placeOrder = async (petId: number, body: Body = {}) => {
    const placed = await http()
      .post('/v1/store/orders')
      .set(AUTH)
      .send({ petId, quantity: 1, ...body });
    expect(placed.status).toBe(201);
    return placed.body as { id: number; status: string };
  };
  const patch = (path: string, body: Body, headers: Record<string, string> = {}) => http().patch(path).set(AUTH).set(headers).send(body);
  const eventCount = async (type: string, id: number) =>
    (await http().get(`/v1/events?type=${type}&limit=100`).set(AUTH)).body.filter(
      (event: { data: { object: { id: number } } }) => event.data.object.id === id,
    ).length;

  /**
   * What `send` made the service send the database (nothing on SQLite, which has no proxy): its
   * round trips, less those that prepared a statement (once per connection), and its statements by kind.
   */
  const sentBy = async (send: () => Promise<void>): Promise<{ trips: number; kinds: Record<string, number> }> => {
    const { proxy } = context;
    const before = proxy?.statements();
    const tripsBefore = proxy?.commands() ?? 0;
    await send();
    if (!proxy) return { trips: 0, kinds: {} };
    const kinds: Record<string, number> = {};
    for (const [name, count] of proxy.statements()) if (count > (before!.get(name) ?? 0)) kinds[name] = count - (before!.get(name) ?? 0);
    const prepares = Object.entries(kinds).reduce((sum, [name, count]) => sum + (name.startsWith('prepare ') ? count : 0), 0);
    return { trips: proxy.commands() - tripsBefore - prepares, kinds };
  };
  /** The statements that hold a row or open a transaction, by kind. */
  const holding = (kinds: Record<string, number>) =>
    Object.fromEntries(Object.entries(kinds).filter(([name]) => /for update|begin|commit|rollback/.test(name)));

  it('answers a PATCH of a pet or an order that changes nothing from one read that holds nothing: the same ETag, no event', async () => {
    const pet = await createPet({ name: 'Still' });
    const ordered = await createPet();
    const order = await placeOrder(ordered.id);
    const tags = {
      pet: (await http().get(`/v1/pets/${pet.id}`).set(AUTH)).headers.etag,
      order: (await http().get(`/v1/store/orders/${order.id}`).set(AUTH)).headers.etag,
    };
    const patches: [string, Body, Record<string, string>, string][] = [
      [`/v1/pets/${pet.id}`, { name: 'Still' }, {}, tags.pet],
      [`/v1/pets/${pet.id}`, { name: 'Still', categoryId: 3, status: 'available', metadata: {} }, { 'If-Match': tags.pet }, tags.pet],
      [`/v1/pets/${pet.id}`, {}, {}, tags.pet],
      [`/v1/store/orders/${order.id}`, { status: 'placed' }, {}, tags.order],
      [`/v1/store/orders/${order.id}`, { metadata: {} }, { 'If-Match': tags.order }, tags.order],
    ];
    const sent = await sentBy(async () => {
      for (const [path, body, headers, tag] of patches) {
        const answer = await patch(path, body, headers);
        expect({ status: answer.status, etag: answer.headers.etag }).toEqual({ status: 200, etag: tag });
      }
    });
    if (kind === 'mysql') expect({ trips: sent.trips, holding: holding(sent.kinds) }).toEqual({ trips: patches.length, holding: {} });
    expect(await eventCount('pet.updated', pet.id)).toBe(0);
    expect(await eventCount('order.updated', order.id)).toBe(0);
  });

  it('refuses a PATCH from a read that holds nothing: a stale If-Match (412), a move not allowed (409), an unknown id (404)', async () => {
    const pet = await createPet({ name: 'Refused' });
    const stale = (await http().get(`/v1/pets/${pet.id}`).set(AUTH)).headers.etag;
    expect((await patch(`/v1/pets/${pet.id}`, { status: 'sold' })).status).toBe(200);
    const held = await createPet();
    const order = await placeOrder(held.id, { status: 'delivered' });
    const sent = await sentBy(async () => {
      expectError(await patch(`/v1/pets/${pet.id}`, { name: 'Too late' }, { 'If-Match': stale }), 412, 'PRECONDITION_FAILED');
      expectError(await patch(`/v1/pets/${pet.id}`, { status: 'available' }), 409, 'INVALID_TRANSITION');
      expectError(await patch(`/v1/store/orders/${order.id}`, { status: 'approved' }), 409, 'INVALID_TRANSITION');
      expectError(await patch('/v1/pets/987654321', { name: 'Nobody' }), 404, 'PET_NOT_FOUND');
    });
    if (kind === 'mysql') expect({ trips: sent.trips, holding: holding(sent.kinds) }).toEqual({ trips: 4, holding: {} });
    expect((await http().get(`/v1/pets/${pet.id}`).set(AUTH)).body).toMatchObject({ name: 'Refused', status: 'sold' });
  });

  it('holds the row for a PATCH that changes it, deciding again on the row held', async () => {
    const pet = await createPet({ name: 'Before' });
    const sent = await sentBy(async () => {
      const changed = await patch(`/v1/pets/${pet.id}`, { name: 'After' });
      expect({ status: changed.status, name: changed.body.name }).toEqual({ status: 200, name: 'After' });
    });
    if (kind === 'mysql') expect(holding(sent.kinds)).toEqual({ begin: 1, 'select for update': 1, commit: 1 });
    expect(await eventCount('pet.updated', pet.id)).toBe(1);
  });

  it('stores the answer of a keyed PATCH that changes nothing, holding no row, and replays it', async () => {
    const pet = await createPet({ name: 'Keyed' });
    const key = { 'Idempotency-Key': `unchanged-${kind}-${pet.id}` };
    let first!: request.Response;
    const sent = await sentBy(async () => {
      first = await patch(`/v1/pets/${pet.id}`, { name: 'Keyed' }, key);
    });
    expect({ status: first.status, body: first.body }).toEqual({ status: 200, body: pet });
    if (kind === 'mysql') expect(Object.keys(holding(sent.kinds)).filter((name) => name.includes('for update'))).toEqual([]);
    const replay = await patch(`/v1/pets/${pet.id}`, { name: 'Keyed' }, key);
    expect({
      status: replay.status,
      body: replay.body,
      etag: replay.headers.etag,
      replayed: replay.headers['idempotent-replayed'],
    }).toEqual({
      status: 200,
      body: pet,
      etag: first.headers.etag,
      replayed: 'true',
    });
    expect(await eventCount('pet.updated', pet.id)).toBe(0);
  });
});
