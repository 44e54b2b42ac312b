import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createSandbox, type TestSandbox } from '../support/sandbox-keys.js';
import { eventually } from './support/eventually.js';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';
import { startReceiver, WEBHOOK_ENV, type WebhookReceiver } from './support/webhook-receiver.js';

type Auth = { readonly Authorization: string };

/**
 * Webhooks in sandboxes (issue 58): a sandbox's endpoints, events and deliveries are its own. An id
 * of another environment is a 404 as one that never existed, listings show only their own, and an
 * event goes only to the endpoints of the environment it happened in, `livemode` saying which.
 */
describe.each(DATABASE_KINDS)('webhooks in sandboxes on %s', (kind) => {
  const ctx = useApp(kind, WEBHOOK_ENV);
  let receiver: WebhookReceiver;
  let sandbox: TestSandbox;
  let another: TestSandbox;

  beforeAll(async () => {
    receiver = await startReceiver();
    sandbox = await createSandbox(ctx.app, 'webhooks');
    another = await createSandbox(ctx.app, 'webhooks too');
  });
  afterAll(() => receiver.close());

  /** The key of the environment each receiver path's endpoint was made in. */
  const owners = new Map<string, Auth>();
  const endpointAt = async (auth: Auth, path: string, events: string[] = ['*']) => {
    const response = await ctx
      .http()
      .post('/v1/webhook-endpoints')
      .set(auth)
      .send({ url: `${receiver.url}${path}`, events });
    expect(response.status).toBe(201);
    owners.set(path, auth);
    return response.body as { id: string; secret: string; livemode: boolean };
  };
  const testEvent = async (auth: Auth, endpointId: string) => {
    const response = await ctx.http().post(`/v1/webhook-endpoints/${endpointId}/test`).set(auth);
    expect(response.status).toBe(202);
    return response.body as { id: string; livemode: boolean };
  };
  const createPet = async (auth: Auth, name: string) => {
    const response = await ctx.http().post('/v1/pets').set(auth).send({ name, categoryId: 1 });
    expect(response.status).toBe(201);
    return response.body as { id: number; livemode: boolean };
  };
  const all = async (auth: Auth, path: string) => {
    const items: { id: string; livemode: boolean }[] = [];
    let url: string | undefined = `${path}?limit=100`;
    while (url) {
      const page = await ctx.http().get(url).set(auth);
      expect(page.status).toBe(200);
      items.push(...page.body);
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '');
      url = next ? new URL(next[1]).pathname + new URL(next[1]).search : undefined;
    }
    return items;
  };

  it('answers 404 for an endpoint or event of another environment, to every call, and changes nothing of it', async () => {
    const live = await endpointAt(AUTH, '/cross-live');
    const ours = await endpointAt(sandbox.auth, '/cross-sandbox');
    const liveEvent = await testEvent(AUTH, live.id);
    const sandboxEvent = await testEvent(sandbox.auth, ours.id);
    await receiver.waitFor('/cross-live', 1);
    await receiver.waitFor('/cross-sandbox', 1);

    const crossings: [Auth, { id: string }, { id: string }, { id: string }][] = [
      [sandbox.auth, live, liveEvent, ours],
      [AUTH, ours, sandboxEvent, live],
      [another.auth, ours, sandboxEvent, ours],
    ];
    for (const [auth, endpoint, event, ownEndpoint] of crossings) {
      const at = `/v1/webhook-endpoints/${endpoint.id}`;
      expectError(await ctx.http().get(at).set(auth), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
      expectError(await ctx.http().post(`${at}/disable`).set(auth), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
      expectError(await ctx.http().post(`${at}/enable`).set(auth), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
      expectError(await ctx.http().post(`${at}/rotate-secret`).set(auth), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
      expectError(await ctx.http().post(`${at}/test`).set(auth), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
      expectError(
        await ctx.http().post(`${at}/recover`).set(auth).send({ since: '2020-01-01T00:00:00Z' }),
        404,
        'WEBHOOK_ENDPOINT_NOT_FOUND',
      );
      expectError(await ctx.http().delete(at).set(auth), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
      expectError(await ctx.http().get(`/v1/events/${event.id}`).set(auth), 404, 'EVENT_NOT_FOUND');
      expectError(await ctx.http().post(`/v1/events/${event.id}/redeliver`).set(auth).send({}), 404, 'EVENT_NOT_FOUND');
      expectError(
        await ctx.http().post(`/v1/events/${event.id}/redeliver`).set(auth).send({ endpointId: ownEndpoint.id }),
        404,
        'EVENT_NOT_FOUND',
      );
    }
    // Nor can an event of one's own be sent to another environment's endpoint.
    expectError(
      await ctx.http().post(`/v1/events/${sandboxEvent.id}/redeliver`).set(sandbox.auth).send({ endpointId: live.id }),
      404,
      'WEBHOOK_ENDPOINT_NOT_FOUND',
    );

    // Each is as it was, and still receives: its secret was not rotated, it was neither disabled nor deleted.
    for (const [auth, endpoint, path, livemode] of [
      [AUTH, live, '/cross-live', true],
      [sandbox.auth, ours, '/cross-sandbox', false],
    ] as const) {
      const shown = await ctx.http().get(`/v1/webhook-endpoints/${endpoint.id}`).set(auth);
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({ enabled: true, livemode });
      await testEvent(auth, endpoint.id);
      const received = await receiver.waitFor(path, 2);
      expect(received).toHaveLength(2);
    }
    // The test events never reached another environment's endpoint.
    expect(receiver.received.filter(({ path }) => path === '/cross-live').map((d) => JSON.parse(d.body).livemode)).toEqual([true, true]);
    expect(receiver.received.filter(({ path }) => path === '/cross-sandbox').map((d) => JSON.parse(d.body).livemode)).toEqual([
      false,
      false,
    ]);
  });

  it('answers livemode, last, on endpoints and test events: true live, false in a sandbox', async () => {
    const live = await endpointAt(AUTH, '/livemode-live');
    const ours = await endpointAt(sandbox.auth, '/livemode-sandbox');
    expect(Object.keys(live).at(-1)).toBe('livemode');
    expect(live.livemode).toBe(true);
    expect(ours.livemode).toBe(false);
    for (const [auth, endpoint, livemode] of [
      [AUTH, live, true],
      [sandbox.auth, ours, false],
    ] as const) {
      const shown = await ctx.http().get(`/v1/webhook-endpoints/${endpoint.id}`).set(auth);
      expect(Object.keys(shown.body).at(-1)).toBe('livemode');
      expect(shown.body.livemode).toBe(livemode);
      const disabled = await ctx.http().post(`/v1/webhook-endpoints/${endpoint.id}/disable`).set(auth);
      expect(disabled.body).toMatchObject({ enabled: false, livemode });
      expect(Object.keys(disabled.body).at(-1)).toBe('livemode');
      await ctx.http().post(`/v1/webhook-endpoints/${endpoint.id}/enable`).set(auth).expect(200);
      const event = await testEvent(auth, endpoint.id);
      expect(Object.keys(event).at(-1)).toBe('livemode');
      expect(event.livemode).toBe(livemode);
      const logged = await eventually(
        () => ctx.http().get(`/v1/events/${event.id}`).set(auth),
        (r) => r.body.deliveries?.[0]?.state === 'delivered',
      );
      expect(logged.body).toMatchObject({ id: event.id, livemode, deliveries: [{ endpointId: endpoint.id, state: 'delivered' }] });
      expect(Object.keys(logged.body).at(-1)).toBe('livemode');
    }
  });

  it("delivers a live pet's events to live endpoints only and a sandbox pet's to that sandbox's only, livemode saying which", async () => {
    await endpointAt(AUTH, '/pets-live', ['pet.created']);
    const ours = await endpointAt(sandbox.auth, '/pets-sandbox', ['pet.created']);
    await endpointAt(another.auth, '/pets-another', ['pet.created']);

    const livePet = await createPet(AUTH, 'Live Rex');
    const sandboxPet = await createPet(sandbox.auth, 'Sandbox Rex');
    const [liveDelivery] = await receiver.waitFor('/pets-live', 1);
    const [sandboxDelivery] = await receiver.waitFor('/pets-sandbox', 1);
    // Time for a stray delivery to arrive, were one queued.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.received.filter(({ path }) => path === '/pets-live')).toHaveLength(1);
    expect(receiver.received.filter(({ path }) => path === '/pets-sandbox')).toHaveLength(1);
    expect(receiver.received.filter(({ path }) => path === '/pets-another')).toHaveLength(0);

    const livePayload = JSON.parse(liveDelivery.body);
    expect(livePayload).toMatchObject({ type: 'pet.created', data: { object: { id: livePet.id, name: 'Live Rex' } }, livemode: true });
    expect(Object.keys(livePayload).at(-1)).toBe('livemode');
    const sandboxPayload = JSON.parse(sandboxDelivery.body);
    expect(sandboxPayload).toMatchObject({
      type: 'pet.created',
      data: { object: { id: sandboxPet.id, name: 'Sandbox Rex', livemode: false } },
      livemode: false,
    });
    expect(Object.keys(sandboxPayload).at(-1)).toBe('livemode');

    // The event's log, in its own environment only: its deliveries are to that environment's endpoints.
    const sandboxEndpoints = new Set((await all(sandbox.auth, '/v1/webhook-endpoints')).map(({ id }) => id));
    const logged = await eventually(
      () => ctx.http().get(`/v1/events/${sandboxPayload.id}`).set(sandbox.auth),
      (r) => r.body.deliveries?.every(({ state }: { state: string }) => state === 'delivered'),
    );
    const loggedTo = (logged.body.deliveries as { endpointId: string }[]).map(({ endpointId }) => endpointId);
    expect(loggedTo).toContain(ours.id);
    for (const endpointId of loggedTo) expect(sandboxEndpoints.has(endpointId)).toBe(true);
    expectError(await ctx.http().get(`/v1/events/${sandboxPayload.id}`).set(AUTH), 404, 'EVENT_NOT_FOUND');
    expectError(await ctx.http().get(`/v1/events/${livePayload.id}`).set(sandbox.auth), 404, 'EVENT_NOT_FOUND');

    // Sent again to every subscribed endpoint: its own environment's only.
    const again = await ctx.http().post(`/v1/events/${sandboxPayload.id}/redeliver`).set(sandbox.auth).send({});
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ queued: loggedTo.length });
    await receiver.waitFor('/pets-sandbox', 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter(({ path }) => path === '/pets-live')).toHaveLength(1);
    expect(receiver.received.filter(({ path }) => path === '/pets-another')).toHaveLength(0);

    // Every delivery so far, to whichever endpoint, was of an event of that endpoint's own environment.
    for (const delivery of receiver.received) {
      const eventId = String(delivery.headers['webhook-id']);
      expect({
        path: delivery.path,
        status: (await ctx.http().get(`/v1/events/${eventId}`).set(owners.get(delivery.path)!)).status,
      }).toEqual({
        path: delivery.path,
        status: 200,
      });
    }
  });

  it("lists only its own environment's endpoints and events", async () => {
    await endpointAt(AUTH, '/listed-live', ['pet.created']);
    await endpointAt(sandbox.auth, '/listed-sandbox', ['pet.created']);
    await createPet(AUTH, 'Listed live');
    await createPet(sandbox.auth, 'Listed sandbox');
    await receiver.waitFor('/listed-live', 1);
    await receiver.waitFor('/listed-sandbox', 1);

    const ids = async (auth: Auth, path: string, livemode: boolean) => {
      const items = await all(auth, path);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(item.livemode).toBe(livemode);
      return new Set(items.map(({ id }) => id));
    };
    const liveEndpoints = await ids(AUTH, '/v1/webhook-endpoints', true);
    const sandboxEndpoints = await ids(sandbox.auth, '/v1/webhook-endpoints', false);
    const liveEvents = await ids(AUTH, '/v1/events', true);
    const sandboxEvents = await ids(sandbox.auth, '/v1/events', false);
    for (const id of sandboxEndpoints) expect(liveEndpoints.has(id)).toBe(false);
    for (const id of sandboxEvents) expect(liveEvents.has(id)).toBe(false);
    // Every endpoint delivered to is listed in its own environment.
    const byPath = (path: string) => receiver.received.find((d) => d.path === path)!;
    expect(liveEvents.has(String(byPath('/listed-live').headers['webhook-id']))).toBe(true);
    expect(sandboxEvents.has(String(byPath('/listed-sandbox').headers['webhook-id']))).toBe(true);
    // A sandbox none of these were made in lists none.
    expect(await all(another.auth, '/v1/events')).toEqual([]);
    for (const { id } of await all(another.auth, '/v1/webhook-endpoints'))
      expect(liveEndpoints.has(id) || sandboxEndpoints.has(id)).toBe(false);
  });

  // 1.5.x ordered a page by the select list's `public_id AS id` (a random text) while its cursor is
  // the row id: pages skipped and repeated endpoints. In a sandbox of its own, every endpoint is known.
  it('pages through endpoints in the order they were made, each once', async () => {
    const own = await createSandbox(ctx.app, 'endpoint pages');
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await endpointAt(own.auth, `/pages-${i}`)).id);
    const listed: string[] = [];
    let url: string | undefined = '/v1/webhook-endpoints?limit=2';
    while (url) {
      const page = await ctx.http().get(url).set(own.auth).expect(200);
      listed.push(...(page.body as { id: string }[]).map(({ id }) => id));
      const next = /<[^>]*(\/v1\/webhook-endpoints\?[^>]*)>;\s*rel="next"/.exec(String(page.headers.link ?? ''));
      url = next?.[1];
    }
    expect(listed).toEqual(made);
  });
});
