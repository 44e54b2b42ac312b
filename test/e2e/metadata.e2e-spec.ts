import { describe, expect, it } from '@jest/globals';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

type Body = Record<string, unknown>;

/** Metadata on pets and orders (DECISIONS "Metadata"): set on create, merged by PATCH, in every answer and event, a listing's filter. */
describe.each(DATABASE_KINDS)('metadata on %s', (kind) => {
  const ctx = useApp(kind, { RATE_LIMIT_PER_MINUTE: '0' });
  const http = () => ctx.http();
  const createPet = (body: Body) =>
    http()
      .post('/v1/pets')
      .set(AUTH)
      .send({ name: 'Tagged', categoryId: 1, ...body });
  const patchPet = (id: number, body: Body) => http().patch(`/v1/pets/${id}`).set(AUTH).send(body);
  const list = (query: string) => http().get(`/v1/pets?${query}`).set(AUTH);
  const eventsOf = async (type: string, id: number): Promise<{ data: { object: Body; previousAttributes?: Body } }[]> => {
    const found = [];
    for (let path = `/v1/events?type=${type}&limit=100`; ;) {
      const page = await http().get(path).set(AUTH);
      found.push(...page.body.filter((event: { data: { object: { id: number } } }) => event.data.object.id === id));
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '');
      if (!next) return found;
      path = new URL(next[1]).pathname + new URL(next[1]).search;
    }
  };

  /** A metadata object's members, in name order: what "answered exactly" compares, whatever the members' order. */
  const membersOf = (metadata: object) => Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : 1));
  const placeOrder = (body: Body) =>
    http()
      .post('/v1/store/orders')
      .set(AUTH)
      .send({ quantity: 1, ...body });
  const patchOrder = (id: number, body: Body) => http().patch(`/v1/store/orders/${id}`).set(AUTH).send(body);
  /** Pets and orders, each with what its create needs besides metadata (`fields`), and its requests. */
  const owners = [
    {
      name: 'pets',
      path: '/v1/pets',
      created: 'pet.created',
      updated: 'pet.updated',
      fields: async (): Promise<Body> => ({ name: 'Tagged', categoryId: 1 }),
      create: createPet,
      patch: patchPet,
    },
    {
      name: 'orders',
      path: '/v1/store/orders',
      created: 'order.placed',
      updated: 'order.updated',
      fields: async (): Promise<Body> => ({ petId: (await createPet({})).body.id, quantity: 1 }),
      create: async (body: Body) => placeOrder({ petId: (await createPet({})).body.id, ...body }),
      patch: patchOrder,
    },
  ];

  describe('on pets', () => {
    it('is set on create, {} when none, and in every answer and the pet.created event', async () => {
      const plain = await createPet({});
      expect(plain.body.metadata).toEqual({});
      const tagged = await createPet({ metadata: { erp_id: 'A-17', 'shop.sku': 'Ünïcödé ✓ 🐕', empty: '' } });
      expect(tagged.status).toBe(201);
      const metadata = { erp_id: 'A-17', 'shop.sku': 'Ünïcödé ✓ 🐕', empty: '' };
      expect(tagged.body.metadata).toEqual(metadata);
      expect((await http().get(`/v1/pets/${tagged.body.id}`).set(AUTH)).body.metadata).toEqual(metadata);
      const [created] = await eventsOf('pet.created', tagged.body.id);
      expect(created.data.object).toEqual(tagged.body);
      // A key sent null on create is no key: the create is a Merge Patch of none.
      expect((await createPet({ metadata: { gone: null, kept: 'yes' } })).body.metadata).toEqual({ kept: 'yes' });
    });

    it('is merged by PATCH (RFC 7396): keys set, changed, removed by null, all removed by metadata: null; told with previousAttributes', async () => {
      const { id } = (await createPet({ metadata: { a: '1', b: '2' } })).body;
      const merged = await patchPet(id, { metadata: { b: 'two', c: '3', a: null } });
      expect(merged.status).toBe(200);
      expect(merged.body.metadata).toEqual({ b: 'two', c: '3' });
      const renamed = await patchPet(id, { name: 'Renamed' });
      expect(renamed.body.metadata).toEqual({ b: 'two', c: '3' });
      const cleared = await patchPet(id, { metadata: null });
      expect(cleared.body.metadata).toEqual({});
      expect((await http().get(`/v1/pets/${id}`).set(AUTH)).body.metadata).toEqual({});
      const events = await eventsOf('pet.updated', id);
      expect(events.map(({ data }) => data.previousAttributes)).toEqual([
        { metadata: { a: '1', b: '2' } },
        { name: 'Tagged' },
        { metadata: { b: 'two', c: '3' } },
      ]);
      // The same metadata again changes nothing: no event.
      await patchPet(id, { metadata: {} });
      await patchPet(id, { metadata: { x: null } });
      expect(await eventsOf('pet.updated', id)).toHaveLength(3);
    });

    it.each([
      ['an array', { metadata: [] }, 'metadata must be a JSON object of string values'],
      ['a string', { metadata: 'erp' }, 'metadata must be a JSON object of string values'],
      ['null', { metadata: null }, 'metadata must be a JSON object of string values'],
      [
        'a key with a space',
        { metadata: { 'bad key': 'x' } },
        'metadata key "bad key" must be 1 to 40 characters of A-Z, a-z, 0-9, _, . and -',
      ],
      ['a key of 41 characters', { metadata: { ['k'.repeat(41)]: 'x' } }, `metadata key "${'k'.repeat(41)}" must be 1 to 40 characters`],
      ['a number', { metadata: { erp: 7 } }, 'metadata.erp must be a string of at most 500 characters, or null to remove it'],
      ['501 characters', { metadata: { erp: 'x'.repeat(501) } }, 'metadata.erp must be a string of at most 500 characters'],
      [
        '501 characters outside the BMP',
        { metadata: { erp: '🐕'.repeat(501) } },
        'metadata.erp must be a string of at most 500 characters',
      ],
      ['51 keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata holds at most 50 keys'],
    ])('refuses metadata of %s on create with VALIDATION_FAILED naming it', async (_, body, message) => {
      const refused = await createPet(body);
      expectError(refused, 400, 'VALIDATION_FAILED');
      expect(refused.body.message).toContain(message);
    });

    it('takes 500 characters of any script as a value (code points, as MySQL counts them)', async () => {
      const value = '🐕'.repeat(500);
      expect((await createPet({ metadata: { long: value } })).body.metadata).toEqual({ long: value });
    });

    it('refuses a patch that would leave more than 50 keys, changing nothing', async () => {
      const full = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
      const { id, ...before } = (await createPet({ metadata: full })).body;
      const refused = await patchPet(id, { name: 'Never', metadata: { one_more: 'v' } });
      expectError(refused, 400, 'VALIDATION_FAILED');
      expect(refused.body.message).toBe('metadata would hold 51 keys with this patch; it holds at most 50.');
      expect((await http().get(`/v1/pets/${id}`).set(AUTH)).body).toEqual({ id, ...before });
      expect((await patchPet(id, { metadata: { k0: null, one_more: 'v' } })).status).toBe(200);
    });

    it('filters a listing by one pair, in keyset pages with Link, alone or with status, and keeps up with changes', async () => {
      const pair = `batch-${kind}-${Date.now()}`;
      const ids: number[] = [];
      for (let i = 0; i < 7; i++)
        ids.push((await createPet({ status: i % 2 ? 'sold' : 'available', metadata: { batch: pair, n: String(i) } })).body.id);
      await createPet({ metadata: { batch: `${pair}-other` } });
      const seen: number[] = [];
      for (let path: string | undefined = `/v1/pets?limit=3&metadata[batch]=${pair}`; path;) {
        const page = await http().get(path).set(AUTH);
        expect(page.status).toBe(200);
        seen.push(...page.body.map((pet: { id: number }) => pet.id));
        const next = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '');
        path = next ? new URL(next[1]).pathname + new URL(next[1]).search : undefined;
      }
      expect(seen).toEqual(ids);
      const sold = await list(`status=sold&metadata[batch]=${encodeURIComponent(pair)}`);
      expect(sold.body.map((pet: { id: number }) => pet.id)).toEqual(ids.filter((_, i) => i % 2));
      // A pair changed or removed leaves the listing; a deleted pet too.
      await patchPet(ids[0], { metadata: { batch: null } });
      await patchPet(ids[2], { metadata: { batch: 'moved' } });
      expect((await http().delete(`/v1/pets/${ids[4]}`).set(AUTH)).status).toBe(204);
      const after = await list(`limit=100&metadata[batch]=${pair}`);
      expect(after.body.map((pet: { id: number }) => pet.id)).toEqual([ids[1], ids[3], ids[5], ids[6]]);
      expect((await list('metadata[batch]=moved')).body.map((pet: { id: number }) => pet.id)).toEqual([ids[2]]);
    });

    it.each([
      ['metadata[a]=1&metadata[b]=2', 'metadata filters by one pair only: give one metadata[key]=value'],
      ['metadata=A-17', 'metadata filters by one pair, given as metadata[key]=value'],
      // Both forms at once: neither is dropped.
      ['metadata=A-17&metadata[a]=1', 'metadata filters by one pair, given as metadata[key]=value'],
      ['metadata[bad key]=1', 'metadata key "bad key" must be 1 to 40 characters'],
      ['metadata[a]=1&metadata[a]=2', 'metadata[a] must be given once'],
      [`metadata[a]=${'x'.repeat(501)}`, 'metadata[a] must be at most 500 characters'],
    ])('refuses the filter %.40s with VALIDATION_FAILED', async (query, message) => {
      const refused = await list(query);
      expectError(refused, 400, 'VALIDATION_FAILED');
      expect(refused.body.message).toContain(message);
    });

    it("refuses a cursor made for another pair, or for no pair: a cursor carries its listing's filter", async () => {
      for (let i = 0; i < 3; i++) await createPet({ metadata: { cursor_test: 'x' } });
      const first = await list('limit=1&metadata[cursor_test]=x');
      const cursor = new URL(/<([^>]+)>/.exec(first.headers.link)![1]).searchParams.get('cursor')!;
      expectError(await list(`limit=1&metadata[cursor_test]=y&cursor=${cursor}`), 400, 'VALIDATION_FAILED');
      expectError(await list(`limit=1&cursor=${cursor}`), 400, 'VALIDATION_FAILED');
      expect((await list(`limit=1&metadata[cursor_test]=x&cursor=${cursor}`)).status).toBe(200);
    });
  });

  describe('keys that name what every object has', () => {
    /** Keys the rule allows that name a property of every object (Object.prototype's), or one libraries look for. */
    const OBJECT_NAMES = [...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'toJSON', 'then'];
    /** One member per such key (own members: a literal `__proto__:` would set the prototype instead), each value naming its key. */
    const objectNamed = (suffix: string): Body => Object.fromEntries(OBJECT_NAMES.map((key) => [key, `${key}${suffix}`]));

    it.each(owners)('are stored and answered exactly on the $name create, its read, its event and a keyed retry', async (owner) => {
      const metadata = { erp_id: 'A-1', ...objectNamed(`-${owner.name}-create`) };
      const created = await owner.create({ metadata });
      expect(created.status).toBe(201);
      expect(membersOf(created.body.metadata)).toEqual(membersOf(metadata));
      expect(created.text).toContain(`"__proto__":"__proto__-${owner.name}-create"`);
      const read = await http().get(`${owner.path}/${created.body.id}`).set(AUTH);
      expect(membersOf(read.body.metadata)).toEqual(membersOf(metadata));
      const [event] = await eventsOf(owner.created, created.body.id);
      expect(membersOf(event.data.object.metadata as object)).toEqual(membersOf(metadata));
      // A retry is the same request only with the same value of every key, __proto__ included.
      const base = await owner.fields();
      const key = `proto-${owner.name}-${kind}-${Date.now()}`;
      const keyed = (value: string) =>
        http()
          .post(owner.path)
          .set(AUTH)
          .set('Idempotency-Key', key)
          .type('application/json')
          .send(JSON.stringify({ ...base, metadata: Object.fromEntries([['__proto__', value]]) }));
      const original = await keyed('one');
      expect(original.status).toBe(201);
      expect(membersOf(original.body.metadata)).toEqual([['__proto__', 'one']]);
      const replayed = await keyed('one');
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.text).toBe(original.text);
      expectError(await keyed('two'), 422, 'IDEMPOTENCY_KEY_REUSED');
    });

    it.each(owners)('are set, changed and removed by a $name PATCH and told exactly in previousAttributes', async (owner) => {
      const { id } = (await owner.create({ metadata: { erp_id: 'A-1' } })).body;
      const set = objectNamed(`-${owner.name}-patch`);
      const patched = await owner.patch(id, { metadata: set });
      expect(patched.status).toBe(200);
      const afterSet = { erp_id: 'A-1', ...set };
      expect(membersOf(patched.body.metadata)).toEqual(membersOf(afterSet));
      // A null removes such a key and a string changes it, as any other key.
      const removed = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'erp_id'];
      const changed = await owner.patch(id, {
        metadata: { ...Object.fromEntries(removed.map((key) => [key, null])), isPrototypeOf: 'changed' },
      });
      expect(changed.status).toBe(200);
      const afterChange = Object.fromEntries(
        Object.entries(afterSet)
          .filter(([key]) => !removed.includes(key))
          .map(([key, value]) => [key, key === 'isPrototypeOf' ? 'changed' : value]),
      );
      expect(membersOf(changed.body.metadata)).toEqual(membersOf(afterChange));
      expect(membersOf((await http().get(`${owner.path}/${id}`).set(AUTH)).body.metadata)).toEqual(membersOf(afterChange));
      const events = await eventsOf(owner.updated, id);
      expect(events.map(({ data }) => membersOf(data.previousAttributes!.metadata as object))).toEqual([
        [['erp_id', 'A-1']],
        membersOf(afterSet),
      ]);
      expect(events.map(({ data }) => membersOf(data.object.metadata as object))).toEqual([membersOf(afterSet), membersOf(afterChange)]);
      // Removing keys that are not there changes nothing, and tells nothing.
      const again = await owner.patch(id, { metadata: Object.fromEntries(removed.map((key) => [key, null])) });
      expect(membersOf(again.body.metadata)).toEqual(membersOf(afterChange));
      expect(await eventsOf(owner.updated, id)).toHaveLength(2);
      expect((await owner.patch(id, { metadata: null })).body.metadata).toEqual({});
    });

    it.each(owners)('filter a listing of $name by a pair of any of them', async (owner) => {
      const suffix = `-${owner.name}-filter-${kind}-${Date.now()}`;
      const created = await owner.create({ metadata: objectNamed(suffix) });
      expect(created.status).toBe(201);
      const { id } = created.body;
      expect((await owner.create({ metadata: objectNamed(`${suffix}-other`) })).status).toBe(201);
      for (const key of OBJECT_NAMES) {
        const listed = await http()
          .get(`${owner.path}?metadata[${key}]=${encodeURIComponent(`${key}${suffix}`)}`)
          .set(AUTH);
        expect({ key, status: listed.status, ids: listed.body.map?.((found: { id: number }) => found.id) }).toEqual({
          key,
          status: 200,
          ids: [id],
        });
        expect(membersOf(listed.body[0].metadata)).toEqual(membersOf(objectNamed(suffix)));
      }
      expect((await http().get(`${owner.path}?metadata[constructor]=nobody`).set(AUTH)).body).toEqual([]);
    });
  });

  describe('at its maximum', () => {
    /** The largest metadata the rule allows, in the most bytes: 50 keys of 40 characters, values of 500 four-byte characters (`fill`). */
    const largest = (tag: string, fill = '🐕'): Body =>
      Object.fromEntries(
        Array.from({ length: 50 }, (_, i) => [
          `${tag}_${String(i).padStart(2, '0')}_`.padEnd(40, 'k'),
          fill.repeat(499) + String.fromCodePoint(0x1f400 + i),
        ]),
      );
    const send = (method: 'post' | 'patch', path: string, body: Body, key?: string) => {
      const request = http()[method](path).set(AUTH).type('application/json');
      return (key === undefined ? request : request.set('Idempotency-Key', key)).send(JSON.stringify(body));
    };

    it.each(owners)('fits the body of a $name create and PATCH (about 100 KB) and is answered and read back exactly', async (owner) => {
      const body = { ...(await owner.fields()), metadata: largest('fits') };
      expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(100_000);
      const created = await send('post', owner.path, body);
      expect(created.status).toBe(201);
      expect(created.body.metadata).toEqual(body.metadata);
      expect((await http().get(`${owner.path}/${created.body.id}`).set(AUTH)).body.metadata).toEqual(body.metadata);
      const patch = { metadata: largest('fits', '🐈') };
      const changed = await send('patch', `${owner.path}/${created.body.id}`, patch);
      expect(changed.status).toBe(200);
      expect(changed.body.metadata).toEqual(patch.metadata);
      expect((await http().get(`${owner.path}/${created.body.id}`).set(AUTH)).body.metadata).toEqual(patch.metadata);
    });

    it.each(owners)('stores and replays exactly a keyed $name create and PATCH whose answers are over 64 KB', async (owner) => {
      const key = `largest-${owner.name}-${kind}-${Date.now()}`;
      const body = { ...(await owner.fields()), metadata: largest('keyed') };
      const created = await send('post', owner.path, body, key);
      expect(created.status).toBe(201);
      expect(Buffer.byteLength(created.text)).toBeGreaterThan(64 * 1024);
      const retried = await send('post', owner.path, body, key);
      expect({ status: retried.status, replayed: retried.headers['idempotent-replayed'], text: retried.text }).toEqual({
        status: 201,
        replayed: 'true',
        text: created.text,
      });
      const path = `${owner.path}/${created.body.id}`;
      const patch = { metadata: largest('keyed', '🐈') };
      const changed = await send('patch', path, patch, `${key}-patch`);
      expect(changed.status).toBe(200);
      expect(Buffer.byteLength(changed.text)).toBeGreaterThan(64 * 1024);
      const repeated = await send('patch', path, patch, `${key}-patch`);
      expect({ status: repeated.status, replayed: repeated.headers['idempotent-replayed'], text: repeated.text }).toEqual({
        status: 200,
        replayed: 'true',
        text: changed.text,
      });
      // One create, one change.
      const [pair] = Object.entries(patch.metadata);
      const listed = await http()
        .get(`${owner.path}?metadata[${pair[0]}]=${encodeURIComponent(pair[1] as string)}`)
        .set(AUTH);
      expect(listed.body.map((found: { id: number }) => found.id)).toEqual([created.body.id]);
      expect(await eventsOf(owner.updated, created.body.id)).toHaveLength(1);
    });
  });

  describe('on orders', () => {
    it.each(['delivered', 'cancelled'])(
      'changes the metadata of a %s order and nothing else of it: its status and shipDate stay final, in the same patch too',
      async (final) => {
        const petId = (await createPet({})).body.id;
        const shipDate = '2026-12-01T09:30:00.000Z';
        const { id } = (await placeOrder({ petId, shipDate, metadata: { erp_order: 'SO-1' } })).body;
        if (final === 'delivered') {
          expect((await patchOrder(id, { status: 'approved' })).status).toBe(200);
          expect((await patchOrder(id, { status: 'delivered' })).status).toBe(200);
        } else expect((await http().post(`/v1/store/orders/${id}/cancel`).set(AUTH)).status).toBe(200);
        const closed = (await http().get(`/v1/store/orders/${id}`).set(AUTH)).body;
        expect(closed).toMatchObject({ status: final, shipDate, complete: final === 'delivered' });

        const noted = await patchOrder(id, { metadata: { erp_order: null, refund: `RF-${final}` } });
        expect(noted.status).toBe(200);
        expect(noted.body).toEqual({ ...closed, metadata: { refund: `RF-${final}` } });
        // Its own status and shipDate again are no change; the same patch is answered as it stands.
        expect((await patchOrder(id, { status: final === 'delivered' ? 'delivered' : undefined, shipDate, metadata: {} })).body).toEqual(
          noted.body,
        );
        for (const terms of [{ shipDate: '2027-01-01T00:00:00.000Z' }, { status: 'approved' }]) {
          const refused = await patchOrder(id, { ...terms, metadata: { refund: 'changed' } });
          expectError(refused, 409, 'INVALID_TRANSITION');
        }
        expect((await http().get(`/v1/store/orders/${id}`).set(AUTH)).body).toEqual(noted.body);
        const [last] = (await eventsOf('order.updated', id)).slice(-1);
        expect(last.data).toEqual({ object: noted.body, previousAttributes: { metadata: { erp_order: 'SO-1' } } });
        // The pet stays where the order left it.
        expect((await http().get(`/v1/pets/${petId}`).set(AUTH)).body.status).toBe(final === 'delivered' ? 'sold' : 'available');
      },
    );

    it('is set on create, merged by PATCH even on a final order, filtered by, and told in order.updated', async () => {
      const petId = (await createPet({})).body.id;
      const placed = await http()
        .post('/v1/store/orders')
        .set(AUTH)
        .send({ petId, quantity: 1, metadata: { erp_order: 'SO-1' } });
      expect(placed.status).toBe(201);
      expect(placed.body.metadata).toEqual({ erp_order: 'SO-1' });
      const id = placed.body.id;
      const cancelled = await http().post(`/v1/store/orders/${id}/cancel`).set(AUTH);
      expect(cancelled.body).toMatchObject({ status: 'cancelled', metadata: { erp_order: 'SO-1' } });
      // The integrator's own references change on a final order too; its terms (shipDate) do not.
      const noted = await http()
        .patch(`/v1/store/orders/${id}`)
        .set(AUTH)
        .send({ metadata: { refund: 'RF-9' } });
      expect(noted.status).toBe(200);
      expect(noted.body.metadata).toEqual({ erp_order: 'SO-1', refund: 'RF-9' });
      const filtered = await http().get('/v1/store/orders?metadata[refund]=RF-9').set(AUTH);
      expect(filtered.body.map((order: { id: number }) => order.id)).toEqual([id]);
      const events = await eventsOf('order.updated', id);
      expect(events.at(-1)!.data).toEqual({ object: noted.body, previousAttributes: { metadata: { erp_order: 'SO-1' } } });
    });
  });

  it('is in the document: the field of Pet and Order, a Merge Patch member that may be null, a deepObject filter', async () => {
    const { components, paths } = (await http().get('/v1/openapi.json')).body;
    for (const schema of ['Pet', 'Order']) {
      expect(components.schemas[schema].required).toContain('metadata');
      expect(components.schemas[schema].properties.metadata).toMatchObject({
        type: 'object',
        additionalProperties: { type: 'string', maxLength: 500 },
        maxProperties: 50,
      });
    }
    // A final order's metadata still merges: updateOrder says so.
    expect(paths['/store/orders/{orderId}'].patch.description).toMatch(
      /final, their status and shipDate too; their metadata.*still merges/,
    );
    for (const schema of ['PetPatch', 'OrderPatch'])
      expect(components.schemas[schema].properties.metadata).toMatchObject({ nullable: true, additionalProperties: { nullable: true } });
    for (const path of ['/pets', '/store/orders']) {
      const [filter] = paths[path].get.parameters.filter((parameter: { name: string }) => parameter.name === 'metadata');
      expect(filter).toMatchObject({ in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', maxProperties: 1 } });
      // The empty object: a pair as example would be sent by Swagger UI unasked, and none makes it send a sample.
      expect(filter.example).toEqual({});
    }
  });
});
