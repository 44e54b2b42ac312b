import { describe, expect, it } from '@jest/globals';
import { eventually } from './support/eventually.js';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

type Body = Record<string, unknown>;
type Pet = { id: number; metadata: Record<string, string> };

/**
 * Strings compare exactly on every database (DECISIONS "Fields", issue 56): `A-1` and `A-1 `, `a` and
 * `A` are two values wherever the service compares text. MySQL's utf8mb4_bin ignored trailing spaces.
 */
describe.each(DATABASE_KINDS)('text compared exactly on %s', (kind) => {
  // Webhook endpoints on 127.0.0.1 over http, which nothing is sent to: only their ids are asked for.
  const ctx = useApp(kind, { RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
  const http = () => ctx.http();
  const createPet = (body: Body, headers: Record<string, string> = {}) =>
    http()
      .post('/v1/pets')
      .set(AUTH)
      .set(headers)
      .send({ name: 'Exact', categoryId: 1, ...body });
  const ids = (pets: Pet[]) => pets.map(({ id }) => id);
  /** Every pet of a listing, page after page through its Link; `between` runs after each page. */
  const walk = async (query: string, between: () => Promise<void> = async () => {}): Promise<Pet[]> => {
    const seen: Pet[] = [];
    for (let path: string | undefined = `/v1/pets?${query}`; path;) {
      const page = await http().get(path).set(AUTH);
      expect(page.status).toBe(200);
      seen.push(...page.body);
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '');
      path = next ? new URL(next[1]).pathname + new URL(next[1]).search : undefined;
      await between();
    }
    return seen;
  };

  it('filters pets and orders by a metadata value exactly: a trailing space or a letter’s case makes another value', async () => {
    const values = ['A-1', 'A-1 ', 'A-1  ', 'a', 'A', ' A'];
    const pets = [];
    for (const value of values) pets.push((await createPet({ metadata: { erp: value } })).body as Pet);
    for (const [i, value] of values.entries()) {
      expect(ids(await walk(`metadata[erp]=${encodeURIComponent(value)}`))).toEqual([pets[i].id]);
      expect(ids(await walk(`limit=1&status=available&metadata[erp]=${encodeURIComponent(value)}`))).toEqual([pets[i].id]);
    }
    const orders = [];
    for (const [i, value] of values.entries()) {
      const placed = await http()
        .post('/v1/store/orders')
        .set(AUTH)
        .send({ petId: pets[i].id, quantity: 1, metadata: { erp: value } });
      expect(placed.status).toBe(201);
      orders.push(placed.body.id);
    }
    for (const [i, value] of values.entries()) {
      const listed = await http()
        .get(`/v1/store/orders?metadata[erp]=${encodeURIComponent(value)}`)
        .set(AUTH);
      expect(listed.body.map(({ id }: { id: number }) => id)).toEqual([orders[i]]);
    }
  });

  it('lists, page after page, only the pets that hold the pair as each page is read, while their values change', async () => {
    const made: Pet[] = [];
    for (let i = 0; i < 6; i++) made.push((await createPet({ metadata: { walk: 'W-1' } })).body as Pet);
    // After the first page, two pets further on get a value that differs by a trailing space, and by its case.
    let pages = 0;
    const seen = await walk('limit=2&metadata[walk]=W-1', async () => {
      if (pages++ > 0) return;
      for (const [pet, value] of [
        [made[2], 'W-1 '],
        [made[5], 'w-1'],
      ] as const)
        expect(
          (
            await http()
              .patch(`/v1/pets/${pet.id}`)
              .set(AUTH)
              .send({ metadata: { walk: value } })
          ).status,
        ).toBe(200);
    });
    expect(seen.map(({ metadata }) => metadata.walk)).toEqual(['W-1', 'W-1', 'W-1', 'W-1']);
    expect(ids(seen)).toEqual([made[0].id, made[1].id, made[3].id, made[4].id]);
  });

  it('takes Idempotency-Keys `pad-1`, `pad-1 ` and `pad-1  ` for three keys, each replaying its own answer', async () => {
    const keys = ['pad-1', '"pad-1 "', '"pad-1  "', 'PAD-1'];
    const created = [];
    for (const [i, key] of keys.entries()) {
      const answer = await createPet({ name: `Padded ${i}` }, { 'Idempotency-Key': key, 'X-Request-Id': `exact-pad-${i}` });
      expect({ key, status: answer.status, replayed: answer.headers['idempotent-replayed'] }).toEqual({
        key,
        status: 201,
        replayed: undefined,
      });
      created.push(answer.body.id);
    }
    expect(new Set(created).size).toBe(keys.length);
    for (const [i, key] of keys.entries()) {
      const replay = await createPet({ name: `Padded ${i}` }, { 'Idempotency-Key': key });
      expect({ key, status: replay.status, replayed: replay.headers['idempotent-replayed'], id: replay.body.id }).toEqual({
        key,
        status: 201,
        replayed: 'true',
        id: created[i],
      });
    }
  });

  it('finds request log entries by an Idempotency-Key and a request id exactly', async () => {
    const keys = ['log-1', '"log-1 "', '"log-1  "'];
    for (const [i, key] of keys.entries()) {
      expect((await createPet({ name: `Logged ${i}` }, { 'Idempotency-Key': key, 'X-Request-Id': `exact-log-${i}` })).status).toBe(201);
    }
    const byKey = (key: string) =>
      http()
        .get(`/v1/requests?idempotencyKey=${encodeURIComponent(key)}`)
        .set(AUTH);
    const ofKey = async (key: string) => (await byKey(key)).body.map(({ id }: { id: string }) => id);
    await eventually(
      () => ofKey('log-1  '),
      (found) => found.length > 0,
      3_000,
    );
    expect(await ofKey('log-1')).toEqual(['exact-log-0']);
    expect(await ofKey('log-1 ')).toEqual(['exact-log-1']);
    expect(await ofKey('log-1  ')).toEqual(['exact-log-2']);
    expect(await ofKey('log-1   ')).toEqual([]);
    expect(await ofKey('LOG-1')).toEqual([]);

    expect((await http().get('/v1/requests/exact-log-0').set(AUTH)).status).toBe(200);
    expectError(await http().get('/v1/requests/exact-log-0%20').set(AUTH), 404, 'REQUEST_NOT_FOUND');
    expectError(await http().get('/v1/requests/EXACT-LOG-0').set(AUTH), 404, 'REQUEST_NOT_FOUND');
  });

  it('finds a webhook endpoint by its id exactly', async () => {
    const made = await http()
      .post('/v1/webhook-endpoints')
      .set(AUTH)
      .send({ url: 'http://127.0.0.1:9/exact', events: ['pet.deleted'] });
    expect(made.status).toBe(201);
    expect((await http().get(`/v1/webhook-endpoints/${made.body.id}`).set(AUTH)).status).toBe(200);
    expectError(await http().get(`/v1/webhook-endpoints/${made.body.id}%20`).set(AUTH), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
    expectError(await http().delete(`/v1/webhook-endpoints/${made.body.id}%20`).set(AUTH), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
    expect((await http().get(`/v1/webhook-endpoints/${made.body.id}`).set(AUTH)).status).toBe(200);
  });

  it('finds an event by its id exactly', async () => {
    const { id } = (await createPet({ name: 'Evented' })).body;
    const events = await http().get('/v1/events?type=pet.created&limit=100').set(AUTH);
    const event = events.body.find((found: { data: { object: { id: number } } }) => found.data.object.id === id);
    expect((await http().get(`/v1/events/${event.id}`).set(AUTH)).status).toBe(200);
    expectError(await http().get(`/v1/events/${event.id}%20`).set(AUTH), 404, 'EVENT_NOT_FOUND');
  });
});
