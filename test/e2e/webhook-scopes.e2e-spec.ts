import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { eventually } from './support/eventually.js';
import { runApiKeyCli } from './support/service-process.js';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';
import { startReceiver, WEBHOOK_ENV, type WebhookReceiver } from './support/webhook-receiver.js';

/** Deliveries to 127.0.0.1 over http, tried once: what is not sent at once is not sent. */
const TRIED_ONCE_ENV = { ...WEBHOOK_ENV, WEBHOOK_RETRY_SCHEDULE: '0', RATE_LIMIT_PER_MINUTE: '0' };

/** Longer than a maker's scopes are trusted by the deliverer (500 ms). */
const AFTER_KEY_CHANGE_MS = 1_200;

interface Event {
  id: string;
  type: string;
  data: { object: { id: number; petId?: number } };
  deliveries?: { endpointId: string; state: string; attempts: { error?: string }[] }[];
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
/** The PREFIX the key tool takes for a key. */
const prefixOf = (key: string) => key.slice(0, 12);

/** Issue 56: a key holding only `webhooks:write` read every pet through an endpoint subscribed to `*`. */
describe.each(DATABASE_KINDS)('a scope never reads through a webhook, on %s', (kind) => {
  const ctx = useApp(kind, TRIED_ONCE_ENV);
  const http = () => ctx.http();
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  const cli = async (...args: string[]) => {
    const result = await runApiKeyCli(args, { DATABASE_URL: ctx.database.url });
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({ code: 0, stderr: '' });
    return result.stdout.trim();
  };
  const createKey = (name: string, scopes: string) => cli('create', name, '--scopes', scopes);
  const createEndpoint = (key: string, path: string, events: string[]) =>
    http()
      .post('/v1/webhook-endpoints')
      .set(bearer(key))
      .send({ url: `${receiver.url}${path}`, events });
  const createPet = async (name: string) =>
    (await http().post('/v1/pets').set(AUTH).send({ name, categoryId: 1 }).expect(201)).body.id as number;
  const placeOrder = async (petId: number) =>
    (await http().post('/v1/store/orders').set(AUTH).send({ petId, quantity: 1 }).expect(201)).body.id as number;
  const countEndpoints = async () => (await http().get('/v1/webhook-endpoints?limit=100').set(AUTH).expect(200)).body.length as number;
  /** Every event of `type` (all-scope key), oldest first. */
  const eventsOf = async (type: string) => {
    const events: Event[] = [];
    let url: string | undefined = `/v1/events?limit=100&type=${type}`;
    while (url) {
      const page = await http().get(url).set(AUTH).expect(200);
      events.push(...page.body);
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '');
      url = next ? new URL(next[1]).pathname + new URL(next[1]).search : undefined;
    }
    return events;
  };
  const eventOf = async (type: string, objectId: number) => {
    const event = (await eventsOf(type)).find(({ data }) => data.object.id === objectId);
    expect(event).toBeDefined();
    return event!;
  };
  /**
   * The event with its deliveries once the one to `witness` is settled: an event is fanned out to all
   * its endpoints in one statement, so the others it has are there too.
   */
  const fannedOut = async (id: string, witness: string) =>
    (
      await eventually(
        () => http().get(`/v1/events/${id}`).set(AUTH),
        (response) =>
          (response.body as Event).deliveries?.some(({ endpointId, state }) => endpointId === witness && state !== 'pending') === true,
      )
    ).body as Event;
  const endpointsOf = (event: Event) => event.deliveries!.map(({ endpointId }) => endpointId);
  const bodiesAt = (path: string) =>
    receiver.received.filter((delivery) => delivery.path === path).map(({ body }) => JSON.parse(body) as Event);

  it('refuses an endpoint that asks for the events of what its key may not read, with 403 naming the scope (1.5.0 made it)', async () => {
    const hooksOnly = await createKey('hooks only', 'webhooks:write,webhooks:read');
    const before = await countEndpoints();
    const everything = await createEndpoint(hooksOnly, '/everything', ['*']);
    expectError(everything, 403, 'INSUFFICIENT_SCOPE');
    expect(everything.body.message).toMatch(
      /does not hold the scopes pets:read and store:read, which an endpoint receiving every event needs/,
    );
    expect(everything.headers['www-authenticate']).toBe(
      'Bearer realm="petstore", error="insufficient_scope", scope="webhooks:write pets:read store:read"',
    );
    const pets = await createEndpoint(hooksOnly, '/pets', ['pet.created']);
    expectError(pets, 403, 'INSUFFICIENT_SCOPE');
    expect(pets.body.message).toMatch(/does not hold the scope pets:read, which an endpoint receiving pet.created needs/);
    expectError(await createEndpoint(hooksOnly, '/orders', ['order.placed', 'order.updated']), 403, 'INSUFFICIENT_SCOPE');
    expect(await countEndpoints()).toBe(before);

    const storeReader = await createKey('store hooks', 'webhooks:write,store:read');
    const mixed = await createEndpoint(storeReader, '/mixed', ['order.placed', 'pet.updated']);
    expectError(mixed, 403, 'INSUFFICIENT_SCOPE');
    expect(mixed.body.message).toMatch(/the scope pets:read,/);
    expect((await createEndpoint(storeReader, '/orders', ['order.placed'])).status).toBe(201);
    expect(await countEndpoints()).toBe(before + 1);
  });

  it("sends an endpoint only what its maker's key may read now: narrowed, its pet events stop and its order events go on", async () => {
    const maker = await createKey('narrowed maker', 'webhooks:write,pets:read,store:read');
    const narrowed = (await createEndpoint(maker, '/narrowed', ['*'])).body.id as string;
    const control = (await createEndpoint(maker, '/narrowed-control', ['pet.created'])).body.id as string;
    // Made by an API_KEYS key, which holds every scope: it tells when an event was fanned out.
    const witness = (
      await http()
        .post('/v1/webhook-endpoints')
        .set(AUTH)
        .send({ url: `${receiver.url}/witness`, events: ['*'] })
    ).body.id as string;
    for (const id of [narrowed, control, witness]) expect(id).toMatch(/^we_/);
    const first = await createPet('Before');
    expect(endpointsOf(await fannedOut((await eventOf('pet.created', first)).id, witness))).toEqual(
      expect.arrayContaining([narrowed, control, witness]),
    );

    await cli('scopes', prefixOf(maker), '--scopes', 'webhooks:write,store:read');
    await new Promise((wait) => setTimeout(wait, AFTER_KEY_CHANGE_MS));
    const second = await createPet('After');
    const orderId = await placeOrder(second);
    const created = await fannedOut((await eventOf('pet.created', second)).id, witness);
    expect(endpointsOf(created)).not.toContain(narrowed);
    expect(endpointsOf(created)).not.toContain(control);
    const placed = await fannedOut((await eventOf('order.placed', orderId)).id, witness);
    expect(endpointsOf(placed)).toContain(narrowed);
    await eventually(
      async () => bodiesAt('/narrowed'),
      (bodies) => bodies.some(({ type, data }) => type === 'order.placed' && data.object.id === orderId),
    );
    const types = bodiesAt('/narrowed')
      .filter(({ data }) => data.object.id === second || data.object.petId === second)
      .map(({ type }) => type);
    expect(types).toEqual(['order.placed']);

    // Queued again for it by hand (as a retry or a recovery would be): withheld at the attempt.
    const redelivered = await http().post(`/v1/events/${created.id}/redeliver`).set(AUTH).send({ endpointId: control });
    expect({ status: redelivered.status, body: redelivered.body }).toEqual({ status: 202, body: { queued: 1 } });
    const withheld = await fannedOut(created.id, control);
    expect(withheld.deliveries!.find(({ endpointId }) => endpointId === control)).toEqual({
      endpointId: control,
      state: 'failed',
      attempts: [expect.objectContaining({ error: 'Not sent: the API key that made this endpoint does not hold pets:read now.' })],
    });
    expect(bodiesAt('/narrowed-control').filter(({ data }) => data.object.id === second)).toEqual([]);
  });

  it("hands a rolled key's endpoints to its successor, and sends a revoked key's endpoints nothing it could read", async () => {
    const maker = await createKey('rolled maker', 'webhooks:write,pets:read');
    const endpoint = (await createEndpoint(maker, '/rolled', ['pet.created'])).body.id as string;
    const witness = (
      await http()
        .post('/v1/webhook-endpoints')
        .set(AUTH)
        .send({ url: `${receiver.url}/witness-2`, events: ['*'] })
    ).body.id as string;
    for (const id of [endpoint, witness]) expect(id).toMatch(/^we_/);
    const successor = await cli('roll', prefixOf(maker), '--overlap', '0');
    await new Promise((wait) => setTimeout(wait, AFTER_KEY_CHANGE_MS));
    const rolled = await createPet('Rolled');
    expect(endpointsOf(await fannedOut((await eventOf('pet.created', rolled)).id, witness))).toContain(endpoint);
    expect((await receiver.waitFor('/rolled', 1)).map(({ body }) => (JSON.parse(body) as Event).data.object.id)).toEqual([rolled]);

    await cli('revoke', prefixOf(successor));
    await new Promise((wait) => setTimeout(wait, AFTER_KEY_CHANGE_MS));
    const revoked = await createPet('Revoked');
    expect(endpointsOf(await fannedOut((await eventOf('pet.created', revoked)).id, witness))).not.toContain(endpoint);
    expect(bodiesAt('/rolled').map(({ data }) => data.object.id)).toEqual([rolled]);
  });

  it('keeps sending an endpoint made before 1.5.1, whose maker is not recorded, what it subscribed to', async () => {
    const maker = await createKey('made before', 'webhooks:write,pets:read');
    const endpoint = (await createEndpoint(maker, '/made-before', ['pet.created'])).body.id as string;
    const witness = (
      await http()
        .post('/v1/webhook-endpoints')
        .set(AUTH)
        .send({ url: `${receiver.url}/witness-3`, events: ['*'] })
    ).body.id as string;
    // As the migration leaves a 1.5.0 endpoint: no maker.
    await ctx.app.get(DataSource).query('UPDATE webhook_endpoints SET created_by = NULL WHERE public_id = ?', [endpoint]);
    await cli('revoke', prefixOf(maker));
    await new Promise((wait) => setTimeout(wait, AFTER_KEY_CHANGE_MS));
    const pet = await createPet('Made before');
    expect(endpointsOf(await fannedOut((await eventOf('pet.created', pet)).id, witness))).toContain(endpoint);
  });

  it('lists and shows a key only the events of what it may read, and redelivers only those (1.5.0 showed every pet)', async () => {
    const petId = await createPet('Listed');
    const orderId = await placeOrder(await createPet('Ordered'));
    const petEvent = await eventOf('pet.created', petId);
    const orderEvent = await eventOf('order.placed', orderId);
    const storeReader = await createKey('store events', 'webhooks:read,webhooks:write,store:read');

    const listed = await http().get('/v1/events?limit=100').set(bearer(storeReader));
    expect(listed.status).toBe(200);
    expect(listed.body.length).toBeGreaterThan(0);
    expect((listed.body as Event[]).filter(({ type }) => !type.startsWith('order.'))).toEqual([]);
    const ofPets = await http().get('/v1/events?type=pet.created').set(bearer(storeReader));
    expectError(ofPets, 403, 'INSUFFICIENT_SCOPE');
    expect(ofPets.body.message).toBe('This API key does not hold the scope pets:read, which the events of type pet.created need.');
    expect((await http().get('/v1/events?type=order.placed&limit=100').set(bearer(storeReader))).body).toContainEqual(
      expect.objectContaining({ id: orderEvent.id }),
    );

    expectError(await http().get(`/v1/events/${petEvent.id}`).set(bearer(storeReader)), 403, 'INSUFFICIENT_SCOPE');
    expect((await http().get(`/v1/events/${orderEvent.id}`).set(bearer(storeReader))).status).toBe(200);
    expectError(await http().post(`/v1/events/${petEvent.id}/redeliver`).set(bearer(storeReader)).send({}), 403, 'INSUFFICIENT_SCOPE');
    expect((await http().post(`/v1/events/${orderEvent.id}/redeliver`).set(bearer(storeReader)).send({})).status).toBe(202);

    const neither = await createKey('hooks reader', 'webhooks:read');
    expect((await http().get('/v1/events').set(bearer(neither))).body).toEqual([]);
  });

  it('says in the document what each webhook operation needs beyond its scopes', async () => {
    const { paths } = (await http().get('/v1/openapi.json')).body;
    for (const [path, method] of [
      ['/webhook-endpoints', 'post'],
      ['/events', 'get'],
      ['/events/{eventId}', 'get'],
      ['/events/{eventId}/redeliver', 'post'],
    ])
      expect(paths[path][method].responses['403'].description).toMatch(/pets:read/);
    expect(paths['/webhook-endpoints'].post.description).toMatch(/`pet\.\*` needs `pets:read`, `order\.\*` `store:read`, `\*` both/);
  });
});
