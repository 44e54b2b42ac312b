import { beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

type Body = Record<string, unknown>;

/**
 * Pets and orders that move (issue 46): a pet's status moves by PATCH within its rules, an order
 * holds its pet from placed to delivered (sold) or cancelled (available again), every change is
 * one transaction with its event, and strong ETags make changes conditional (If-Match) and polls
 * cheap (If-None-Match).
 */
describe.each(DATABASE_KINDS)('pets and orders that move, on %s', (kind) => {
  const ctx = useApp(kind, { RATE_LIMIT_PER_MINUTE: '0' });
  const http = () => ctx.http();

  const createPet = async (body: Body = {}) => {
    const created = await http()
      .post('/v1/pets')
      .set(AUTH)
      .send({ name: 'Mover', categoryId: 1, ...body });
    expect(created.status).toBe(201);
    return created.body as { id: number; name: string; categoryId: number; status: string };
  };
  const getPet = (id: number) => http().get(`/v1/pets/${id}`).set(AUTH);
  const patchPet = (id: number, patch: Body, headers: Record<string, string> = {}) =>
    http().patch(`/v1/pets/${id}`).set(AUTH).set(headers).send(patch);
  const placeOrder = (petId: number, body: Body = {}) =>
    http()
      .post('/v1/store/orders')
      .set(AUTH)
      .send({ petId, quantity: 1, ...body });
  const patchOrder = (id: number, patch: Body, headers: Record<string, string> = {}) =>
    http().patch(`/v1/store/orders/${id}`).set(AUTH).set(headers).send(patch);
  const cancelOrder = (id: number, headers: Record<string, string> = {}) =>
    http().post(`/v1/store/orders/${id}/cancel`).set(AUTH).set(headers);
  const statusOf = async (petId: number) => (await getPet(petId)).body.status as string;

  /** The events of `type` about the object with `id`, oldest first. */
  const eventsOf = async (type: string, id: number): Promise<{ data: { object: Body; previousAttributes?: Body } }[]> => {
    const found = [];
    for (let path = `/v1/events?type=${type}&limit=100`; ;) {
      const page = await http().get(path).set(AUTH);
      expect(page.status).toBe(200);
      found.push(...page.body.filter((event: { data: { object: { id: number } } }) => event.data.object.id === id));
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '');
      if (!next) return found;
      path = new URL(next[1]).pathname + new URL(next[1]).search;
    }
  };

  describe('PATCH /pets/{petId}', () => {
    it('applies a Merge Patch, as application/merge-patch+json or application/json, answering the pet and its new ETag', async () => {
      const pet = await createPet({ name: 'Before', categoryId: 4 });
      const merged = await http()
        .patch(`/v1/pets/${pet.id}`)
        .set(AUTH)
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ name: 'After' }));
      expect(merged.status).toBe(200);
      expect(merged.body).toEqual({ ...pet, name: 'After' });
      expect(merged.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      const plain = await patchPet(pet.id, { categoryId: 9, status: 'pending' });
      expect(plain.body).toEqual({ ...pet, name: 'After', categoryId: 9, status: 'pending' });
      const read = await getPet(pet.id);
      expect(read.body).toEqual(plain.body);
      expect(read.headers.etag).toBe(plain.headers.etag);
      expect(plain.headers.etag).not.toBe(merged.headers.etag);
    });

    it.each([
      // A name no field will ever take (a space is in none): a field added later does not change this case.
      [{ 'no such field': 'x' }, /^no such field is not allowed\.$/],
      [{ id: 5 }, /^id is not allowed\.$/],
      [{ name: null }, /^name must not be null/],
      [{ categoryId: null }, /^categoryId must not be null/],
      [{ status: null }, /^status must not be null/],
      [{ name: '   ' }, /^name must be a string of 1 to 255 characters/],
      [{ categoryId: '5' }, /^categoryId must be an integer/],
      [{ status: 'adopted' }, /^status must be one of available, pending, sold/],
    ])('refuses %p with VALIDATION_FAILED naming the field, and changes nothing', async (patch, message) => {
      const pet = await createPet();
      const response = await patchPet(pet.id, patch);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(message);
      expect((await getPet(pet.id)).body).toEqual(pet);
    });

    it('refuses another media type and a body that is not an object', async () => {
      const pet = await createPet();
      expectError(
        await http().patch(`/v1/pets/${pet.id}`).set(AUTH).set('Content-Type', 'text/plain').send('{}'),
        400,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expectError(await http().patch(`/v1/pets/${pet.id}`).set(AUTH).type('application/json').send('[1]'), 400, 'VALIDATION_FAILED');
    });

    it.each([
      ['available', 'pending'],
      ['available', 'sold'],
      ['pending', 'available'],
      ['pending', 'sold'],
    ])('moves a pet from %s to %s', async (from, to) => {
      const pet = await createPet({ status: from });
      const moved = await patchPet(pet.id, { status: to });
      expect(moved.status).toBe(200);
      expect(moved.body.status).toBe(to);
      expect(await statusOf(pet.id)).toBe(to);
    });

    it.each([
      ['sold', 'available', 'sold is final: it moves no more'],
      ['sold', 'pending', 'sold is final: it moves no more'],
    ])('refuses to move a %s pet to %s with INVALID_TRANSITION naming the moves allowed', async (from, to, allowed) => {
      const pet = await createPet({ status: from });
      const refused = await patchPet(pet.id, { status: to, name: 'Not applied' });
      expectError(refused, 409, 'INVALID_TRANSITION');
      expect(refused.body.message).toBe(`The pet ${pet.id} cannot move from ${from} to ${to}: ${allowed}.`);
      expect((await getPet(pet.id)).body).toEqual(pet);
    });

    it('names the moves allowed from where the pet stands', async () => {
      const pet = await createPet({ status: 'sold' });
      expect((await patchPet(pet.id, { status: 'pending' })).body.message).toMatch(/sold is final/);
      const available = await createPet();
      // available moves to pending or sold: a move to itself is no move, and changes nothing.
      const same = await patchPet(available.id, { status: 'available' });
      expect(same.status).toBe(200);
      expect(same.headers.etag).toBe((await getPet(available.id)).headers.etag);
    });

    it('changes nothing, and tells nothing, for a patch that changes nothing', async () => {
      const pet = await createPet({ name: 'Same' });
      const before = await getPet(pet.id);
      const response = await patchPet(pet.id, { name: 'Same' });
      expect(response.status).toBe(200);
      expect(response.headers.etag).toBe(before.headers.etag);
      expect(await eventsOf('pet.updated', pet.id)).toEqual([]);
    });

    it('tells of a change with pet.updated: the pet after, and only the changed fields as they were', async () => {
      const pet = await createPet({ name: 'Told', categoryId: 2 });
      const changed = await patchPet(pet.id, { name: 'Told again', status: 'pending', categoryId: 2 });
      const [event] = await eventsOf('pet.updated', pet.id);
      expect(event.data).toEqual({ object: changed.body, previousAttributes: { name: 'Told', status: 'available' } });
    });

    it('answers PET_NOT_FOUND for an unknown pet and VALIDATION_FAILED for an id that is none', async () => {
      expectError(await patchPet(987654321, { name: 'x' }), 404, 'PET_NOT_FOUND');
      expectError(await http().patch('/v1/pets/abc').set(AUTH).send({ name: 'x' }), 400, 'VALIDATION_FAILED');
    });
  });

  describe('DELETE /pets/{petId}', () => {
    it('removes the pet (204), tells of it with pet.deleted, and answers PET_NOT_FOUND after', async () => {
      const pet = await createPet({ name: 'Gone' });
      const removed = await http().delete(`/v1/pets/${pet.id}`).set(AUTH);
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');
      expectError(await getPet(pet.id), 404, 'PET_NOT_FOUND');
      expectError(await http().delete(`/v1/pets/${pet.id}`).set(AUTH), 404, 'PET_NOT_FOUND');
      expect((await eventsOf('pet.deleted', pet.id)).map(({ data }) => data)).toEqual([{ object: pet }]);
    });

    it('keeps a pet that any order names, even a cancelled one, with PET_HAS_ORDERS', async () => {
      const pet = await createPet();
      const order = (await placeOrder(pet.id)).body;
      expectError(await http().delete(`/v1/pets/${pet.id}`).set(AUTH), 409, 'PET_HAS_ORDERS');
      await cancelOrder(order.id);
      expectError(await http().delete(`/v1/pets/${pet.id}`).set(AUTH), 409, 'PET_HAS_ORDERS');
      expect((await getPet(pet.id)).status).toBe(200);
    });
  });

  describe('orders that move their pet', () => {
    it('holds an available pet (pending) from the order on, and tells of both', async () => {
      const pet = await createPet();
      const placed = await placeOrder(pet.id);
      expect(placed.status).toBe(201);
      expect(placed.body.status).toBe('placed');
      expect(placed.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      expect(await statusOf(pet.id)).toBe('pending');
      expect((await eventsOf('order.placed', placed.body.id)).map(({ data }) => data.object)).toEqual([placed.body]);
      const [held] = await eventsOf('pet.updated', pet.id);
      expect(held.data).toEqual({ object: { ...pet, status: 'pending' }, previousAttributes: { status: 'available' } });
    });

    it.each(['pending', 'sold'])('refuses an order for a %s pet with PET_NOT_AVAILABLE naming it, storing nothing', async (status) => {
      const pet = await createPet({ status });
      const before = (await http().get('/v1/store/orders?limit=100').set(AUTH)).body.length;
      const refused = await placeOrder(pet.id);
      expectError(refused, 409, 'PET_NOT_AVAILABLE');
      expect(refused.body.message).toBe(`Pet ${pet.id} is ${status}, not available: it cannot be ordered.`);
      expect((await http().get('/v1/store/orders?limit=100').set(AUTH)).body.length).toBe(before);
    });

    it('moves placed to approved (the pet stays held) to delivered: the pet is sold, the order complete', async () => {
      const pet = await createPet();
      const order = (await placeOrder(pet.id, { shipDate: '2026-12-01T09:30:00Z' })).body;
      const approved = await patchOrder(order.id, { status: 'approved' });
      expect(approved.body).toEqual({ ...order, status: 'approved' });
      expect(await statusOf(pet.id)).toBe('pending');
      const delivered = await patchOrder(order.id, { status: 'delivered', shipDate: '2026-12-02T10:00:00.500Z' });
      expect(delivered.body).toEqual({ ...order, status: 'delivered', shipDate: '2026-12-02T10:00:00.500Z', complete: true });
      expect(await statusOf(pet.id)).toBe('sold');
      const moves = await eventsOf('order.updated', order.id);
      expect(moves.map(({ data }) => data.previousAttributes)).toEqual([
        { status: 'placed' },
        { status: 'approved', shipDate: '2026-12-01T09:30:00.000Z', complete: false },
      ]);
      expect((await eventsOf('pet.updated', pet.id)).map(({ data }) => data.previousAttributes)).toEqual([
        { status: 'available' },
        { status: 'pending' },
      ]);
    });

    it.each(['placed', 'approved'])('cancels a %s order: the pet is available again', async (status) => {
      const pet = await createPet();
      const order = (await placeOrder(pet.id, { status })).body;
      const cancelled = await cancelOrder(order.id);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toEqual({ ...order, status: 'cancelled' });
      expect(await statusOf(pet.id)).toBe('available');
      expect((await placeOrder(pet.id)).status).toBe(201);
    });

    it('sells the pet at once for an order placed delivered', async () => {
      const pet = await createPet();
      const order = await placeOrder(pet.id, { status: 'delivered' });
      expect(order.body).toMatchObject({ status: 'delivered', complete: true });
      expect(await statusOf(pet.id)).toBe('sold');
    });

    it('refuses a move the order does not allow with INVALID_TRANSITION naming the moves allowed, changing nothing', async () => {
      const pet = await createPet();
      const order = (await placeOrder(pet.id)).body;
      const skip = await patchOrder(order.id, { status: 'delivered' });
      expectError(skip, 409, 'INVALID_TRANSITION');
      expect(skip.body.message).toBe(`The order ${order.id} cannot move from placed to delivered: from placed it moves to approved.`);
      const cancelByPatch = await patchOrder(order.id, { status: 'cancelled' });
      expect(cancelByPatch.body.message).toMatch(/cancel it with POST \/store\/orders\/\{orderId\}\/cancel/);
      expect((await http().get(`/v1/store/orders/${order.id}`).set(AUTH)).body).toEqual(order);
      expect(await statusOf(pet.id)).toBe('pending');
    });

    it.each(['delivered', 'cancelled'])('keeps a %s order final, by PATCH and by cancel', async (final) => {
      const pet = await createPet();
      const order = (await placeOrder(pet.id, { status: 'approved' })).body;
      if (final === 'delivered') await patchOrder(order.id, { status: 'delivered' });
      else await cancelOrder(order.id);
      const petAfter = await statusOf(pet.id);
      const moved = await patchOrder(order.id, { status: 'approved' });
      expectError(moved, 409, 'INVALID_TRANSITION');
      expect(moved.body.message).toContain(`${final} is final: it moves no more`);
      expectError(await cancelOrder(order.id), 409, 'INVALID_TRANSITION');
      const shipped = await patchOrder(order.id, { shipDate: '2027-02-01T00:00:00Z' });
      expectError(shipped, 409, 'INVALID_TRANSITION');
      expect(shipped.body.message).toBe(`The order ${order.id} is ${final}, which is final: its shipDate changes no more.`);
      const now = (await http().get(`/v1/store/orders/${order.id}`).set(AUTH)).body;
      expect(now).toEqual({ ...order, status: final, complete: final === 'delivered' });
      // A patch that changes nothing is no change: answered as it stands.
      expect((await patchOrder(order.id, { status: final })).body).toEqual(now);
      expect((await patchOrder(order.id, {})).body).toEqual(now);
      expect(await statusOf(pet.id)).toBe(petAfter);
    });

    it('refuses a direct status move of a held pet with PET_HAS_OPEN_ORDER naming the order, but takes its name', async () => {
      const pet = await createPet();
      const order = (await placeOrder(pet.id)).body;
      const refused = await patchPet(pet.id, { status: 'sold' });
      expectError(refused, 409, 'PET_HAS_OPEN_ORDER');
      expect(refused.body.message).toContain(`held by order ${order.id}`);
      expect((await patchPet(pet.id, { name: 'Renamed while held' })).body).toMatchObject({
        name: 'Renamed while held',
        status: 'pending',
      });
    });

    it('refuses to place an order cancelled, and answers ORDER_NOT_FOUND for an unknown one', async () => {
      const pet = await createPet();
      expectError(await placeOrder(pet.id, { status: 'cancelled' }), 400, 'VALIDATION_FAILED');
      expectError(await patchOrder(987654321, { status: 'approved' }), 404, 'ORDER_NOT_FOUND');
      expectError(await cancelOrder(987654321), 404, 'ORDER_NOT_FOUND');
    });
  });

  describe('at once', () => {
    it('places exactly one of 50 concurrent orders for one available pet; the others are PET_NOT_AVAILABLE', async () => {
      const pet = await createPet({ name: 'Wanted' });
      const answers = await Promise.all(Array.from({ length: 50 }, () => placeOrder(pet.id)));
      const statuses = answers.map(({ status }) => status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(49);
      for (const refused of answers.filter(({ status }) => status === 409)) expect(refused.body.code).toBe('PET_NOT_AVAILABLE');
      expect(await statusOf(pet.id)).toBe('pending');
      const orders = (await http().get('/v1/store/orders?limit=100&status=placed').set(AUTH)).body.filter(
        (order: { petId: number }) => order.petId === pet.id,
      );
      expect(orders).toHaveLength(1);
    });

    it('applies exactly one of 20 concurrent PATCHes with the same If-Match; the others are 412 with the current ETag', async () => {
      const pet = await createPet({ name: 'Contended' });
      const tag = (await getPet(pet.id)).headers.etag;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => patchPet(pet.id, { name: `Writer ${i}` }, { 'If-Match': tag })),
      );
      const won = answers.filter(({ status }) => status === 200);
      expect(won).toHaveLength(1);
      const lost = answers.filter(({ status }) => status === 412);
      expect(lost).toHaveLength(19);
      const current = await getPet(pet.id);
      expect(current.body).toEqual(won[0].body);
      for (const answer of lost) {
        expectError(answer, 412, 'PRECONDITION_FAILED');
        expect(answer.headers.etag).toBe(current.headers.etag);
      }
      expect(await eventsOf('pet.updated', pet.id)).toHaveLength(1);
    });

    it('applies every one of 50 concurrent unconditional PATCHes of one pet, each to what the one before left (1.4.0 answered 503 on MySQL)', async () => {
      const pet = await createPet({ name: 'Popular' });
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => patchPet(pet.id, i % 2 === 0 ? { name: `Renamed ${i}` } : { categoryId: 100 + i })),
      );
      expect(answers.map(({ status }) => status)).toEqual(Array(50).fill(200));
      // The events tell each change in the order they were made: replayed from the created pet, they give the final row.
      const events = await eventsOf('pet.updated', pet.id);
      expect(events).toHaveLength(50);
      let replayed: Body = { ...pet };
      for (const { data } of events) {
        for (const [field, before] of Object.entries(data.previousAttributes ?? {})) expect(replayed[field]).toEqual(before);
        replayed = data.object;
      }
      expect(replayed).toEqual((await getPet(pet.id)).body);
    });

    it('answers a mix of concurrent renames and a delete of one pet without a 503: each applied before the delete, or 404 after', async () => {
      const pet = await createPet({ name: 'Doomed' });
      const answers = await Promise.all([
        ...Array.from({ length: 20 }, (_, i) => patchPet(pet.id, { name: `Last words ${i}` })),
        http().delete(`/v1/pets/${pet.id}`).set(AUTH),
        ...Array.from({ length: 20 }, (_, i) => patchPet(pet.id, { name: `After ${i}` })),
      ]);
      const statuses = answers.map(({ status }) => status);
      expect(statuses.filter((status) => status === 204)).toHaveLength(1);
      expect(statuses.filter((status) => status !== 200 && status !== 204 && status !== 404)).toEqual([]);
      const renamed = statuses.filter((status) => status === 200).length;
      expect(await eventsOf('pet.updated', pet.id)).toHaveLength(renamed);
      expect(await eventsOf('pet.deleted', pet.id)).toHaveLength(1);
      expectError(await getPet(pet.id), 404, 'PET_NOT_FOUND');
    });
  });

  describe('conditional requests', () => {
    let pet: { id: number };
    let tag: string;
    beforeAll(async () => {
      pet = await createPet({ name: 'Tagged' });
      tag = (await getPet(pet.id)).headers.etag;
    });

    it('answers 304, with the ETag and no body, to an If-None-Match naming the current representation', async () => {
      for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
        const response = await getPet(pet.id).set('If-None-Match', ifNoneMatch);
        expect({ status: response.status, etag: response.headers.etag, body: response.text }).toEqual({ status: 304, etag: tag, body: '' });
      }
      expect((await getPet(pet.id).set('If-None-Match', '"other"')).status).toBe(200);
    });

    it('ignores an If-None-Match that is no list of entity tags, as RFC 9110 lets a cache: the 200 follows', async () => {
      const response = await getPet(pet.id).set('If-None-Match', 'no-quotes');
      expect({ status: response.status, etag: response.headers.etag, id: response.body.id }).toEqual({
        status: 200,
        etag: tag,
        id: pet.id,
      });
    });

    it('tags every successful JSON answer, not only the documented reads', async () => {
      const status = await http().get('/v1/store/inventory').set(AUTH);
      expect(status.status).toBe(200);
      expect(status.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    });

    it('answers 200 with a new ETag once the pet changed', async () => {
      const changed = await patchPet(pet.id, { name: 'Tagged again' });
      const response = await getPet(pet.id).set('If-None-Match', tag);
      expect(response.status).toBe(200);
      expect(response.headers.etag).toBe(changed.headers.etag);
      tag = changed.headers.etag;
    });

    it.each([
      ['/v1/pets?limit=5', () => createPet({ name: 'On the page' })],
      // Open orders: a delivered or cancelled one's shipDate changes no more.
      ['/v1/store/orders?status=placed&limit=5', async () => placeOrder((await createPet()).id)],
    ])('answers 304 to a page of %s until something on it changes', async (path, change) => {
      for (let filled = 0; filled < 5; filled++) await change();
      const first = await http().get(path).set(AUTH);
      expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      const again = await http().get(path).set(AUTH).set('If-None-Match', first.headers.etag);
      expect({ status: again.status, body: again.text }).toEqual({ status: 304, body: '' });
      // A change past the first page leaves it as it was.
      await change();
      expect((await http().get(path).set(AUTH).set('If-None-Match', first.headers.etag)).status).toBe(304);
      const [item] = first.body;
      const moved = path.startsWith('/v1/pets')
        ? await patchPet(item.id, { name: 'Changed on the page' })
        : await patchOrder(item.id, { shipDate: '2027-01-01T00:00:00.000Z' });
      expect(moved.status).toBe(200);
      const changed = await http().get(path).set(AUTH).set('If-None-Match', first.headers.etag);
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).not.toBe(first.headers.etag);
    });

    it('applies a change with If-Match naming the current representation, or *', async () => {
      const current = (await getPet(pet.id)).headers.etag;
      const named = await patchPet(pet.id, { categoryId: 7 }, { 'If-Match': `"other", ${current}` });
      expect(named.status).toBe(200);
      expect((await patchPet(pet.id, { categoryId: 8 }, { 'If-Match': '*' })).status).toBe(200);
    });

    it('refuses a stale, weak or malformed If-Match, changing nothing: 412 with the current ETag, or 400', async () => {
      const before = await getPet(pet.id);
      for (const ifMatch of ['"stale"', `W/${before.headers.etag}`]) {
        const refused = await patchPet(pet.id, { name: 'Never' }, { 'If-Match': ifMatch });
        expectError(refused, 412, 'PRECONDITION_FAILED');
        expect(refused.headers.etag).toBe(before.headers.etag);
      }
      expectError(await patchPet(pet.id, { name: 'Never' }, { 'If-Match': 'no-quotes' }), 400, 'VALIDATION_FAILED');
      expectError(await http().delete(`/v1/pets/${pet.id}`).set(AUTH).set('If-Match', '"stale"'), 412, 'PRECONDITION_FAILED');
      expect(await getPet(pet.id)).toMatchObject({ status: 200, body: before.body });
    });

    it('holds DELETE and cancel to If-Match too', async () => {
      const doomed = await createPet();
      const tagOf = (await getPet(doomed.id)).headers.etag;
      expect((await http().delete(`/v1/pets/${doomed.id}`).set(AUTH).set('If-Match', tagOf)).status).toBe(204);
      const order = await placeOrder((await createPet()).id);
      expectError(await cancelOrder(order.body.id, { 'If-Match': '"stale"' }), 412, 'PRECONDITION_FAILED');
      expect((await cancelOrder(order.body.id, { 'If-Match': order.headers.etag })).status).toBe(200);
    });
  });

  describe('Idempotency-Key on PATCH and cancel', () => {
    it('answers a PATCH retried with its key from the store: the same body and ETag, Idempotent-Replayed, nothing changed twice', async () => {
      const pet = await createPet({ name: 'Keyed' });
      const first = await patchPet(pet.id, { name: 'Keyed once' }, { 'Idempotency-Key': 'patch-1' });
      await patchPet(pet.id, { name: 'Changed since' });
      const replay = await patchPet(pet.id, { name: 'Keyed once' }, { 'Idempotency-Key': 'patch-1' });
      expect({
        status: replay.status,
        body: replay.body,
        etag: replay.headers.etag,
        replayed: replay.headers['idempotent-replayed'],
      }).toEqual({
        status: 200,
        body: first.body,
        etag: first.headers.etag,
        replayed: 'true',
      });
      expect((await getPet(pet.id)).body.name).toBe('Changed since');
      expectError(await patchPet(pet.id, { name: 'Other body' }, { 'Idempotency-Key': 'patch-1' }), 422, 'IDEMPOTENCY_KEY_REUSED');
    });

    it('frees the key of a refused PATCH, so that its retry runs', async () => {
      const pet = await createPet({ status: 'sold' });
      expectError(await patchPet(pet.id, { status: 'available' }, { 'Idempotency-Key': 'patch-refused' }), 409, 'INVALID_TRANSITION');
      expectError(await patchPet(pet.id, { status: 'available' }, { 'Idempotency-Key': 'patch-refused' }), 409, 'INVALID_TRANSITION');
    });

    it('answers a cancel retried with its key from the store, with Idempotent-Replayed', async () => {
      const order = (await placeOrder((await createPet()).id)).body;
      const first = await cancelOrder(order.id, { 'Idempotency-Key': 'cancel-1' });
      const replay = await cancelOrder(order.id, { 'Idempotency-Key': 'cancel-1' });
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    });

    it('answers a cancel retried with its key and a {} body as the same request: cancel takes no body (1.4.0 answered 422)', async () => {
      const order = (await placeOrder((await createPet()).id)).body;
      const first = await cancelOrder(order.id, { 'Idempotency-Key': 'cancel-2' });
      expect(first.status).toBe(200);
      const retried = await http().post(`/v1/store/orders/${order.id}/cancel`).set(AUTH).set('Idempotency-Key', 'cancel-2').send({});
      expect({ status: retried.status, body: retried.body, replayed: retried.headers['idempotent-replayed'] }).toEqual({
        status: 200,
        body: first.body,
        replayed: 'true',
      });
    });
  });

  describe('no silent wrong answer from a query', () => {
    it.each([
      ['/v1/pets?status[]=sold', 'status'],
      ['/v1/pets?status[a]=sold', 'status'],
      ['/v1/pets?limit[]=1', 'limit'],
      ['/v1/pets?cursor[]=x', 'cursor'],
      ['/v1/store/orders?status[]=placed', 'status'],
      ['/v1/events?type[]=pet.created', 'type'],
      ['/v1/webhook-endpoints?limit[0]=1', 'limit'],
    ])('answers %s with VALIDATION_FAILED naming %s', async (path, name) => {
      const response = await http().get(path).set(AUTH);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toContain(`${name} must be given once, as ${name}=value`);
    });

    it('still ignores parameters it does not know, a cache-buster among them', async () => {
      expect((await http().get('/v1/pets?_=1795219200&unknown[]=x').set(AUTH)).status).toBe(200);
    });
  });

  it.each([
    ['PATCH', '/v1/pets/1', 'pets:write'],
    ['DELETE', '/v1/pets/1', 'pets:write'],
    ['PATCH', '/v1/store/orders/1', 'store:write'],
    ['POST', '/v1/store/orders/1/cancel', 'store:write'],
  ])('%s %s needs a key', async (method, path) => {
    const response = await (http() as unknown as Record<string, (path: string) => request.Test>)[method.toLowerCase()](path).send({});
    expectError(response, 401, 'API_KEY_MISSING');
  });
});
