import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { NotFoundError, PetStore, webhooks, WebhookVerificationError } from '../../clients/typescript/src/index.js';
import { eventually } from './support/eventually.js';
import { AUTH, expectError, TEST_API_KEY, useApp, type AppContext } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';
import { type Reply, startReceiver, WEBHOOK_ENV, type WebhookReceiver } from './support/webhook-receiver.js';

const headersOf = (delivery: { headers: Record<string, unknown> }) =>
  Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(delivery.headers[name])]));

describe.each(DATABASE_KINDS)('webhooks on %s', (kind) => {
  const ctx = useApp(kind, WEBHOOK_ENV);
  let receiver: WebhookReceiver;
  const replies = new Map<string, (nth: number) => Reply>();

  beforeAll(async () => {
    receiver = await startReceiver((path, nth) => replies.get(path)?.(nth) ?? 200);
  });
  afterAll(() => receiver.close());

  const createEndpoint = (body: object) => ctx.http().post('/v1/webhook-endpoints').set(AUTH).send(body);
  const endpointAt = async (path: string, events: string[] = ['*'], reply?: (nth: number) => Reply) => {
    if (reply) replies.set(path, reply);
    const response = await createEndpoint({ url: `${receiver.url}${path}`, events });
    expect(response.status).toBe(201);
    return response.body as { id: string; secret: string };
  };
  const createPet = async (name: string, headers: Record<string, string> = {}) => {
    const response = await ctx.http().post('/v1/pets').set(AUTH).set(headers).send({ name, categoryId: 1 });
    expect(response.status).toBe(201);
    return response.body as { id: number };
  };
  const event = (id: string) => ctx.http().get(`/v1/events/${id}`).set(AUTH);
  const allEvents = async (type?: string) => {
    const events: { id: string; type: string; data: { object: { id: number } } }[] = [];
    let url: string | undefined = `/v1/events?limit=100${type ? `&type=${type}` : ''}`;
    while (url) {
      const page = await ctx.http().get(url).set(AUTH);
      expect(page.status).toBe(200);
      events.push(...page.body);
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '');
      url = next ? new URL(next[1]).pathname + new URL(next[1]).search : undefined;
    }
    return events;
  };

  it('registers an endpoint with a signing secret shown once, and lists and gets it without', async () => {
    const response = await createEndpoint({ url: `${receiver.url}/registered`, events: ['order.placed'], description: 'Fulfilment' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^we_/),
      url: `${receiver.url}/registered`,
      events: ['order.placed'],
      description: 'Fulfilment',
      enabled: true,
      createdAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      livemode: true,
    });
    expect(Object.keys(response.body).at(-1)).toBe('livemode');
    expect(response.headers.location).toMatch(new RegExp(`/v1/webhook-endpoints/${response.body.id}$`));
    const { secret: _, ...shown } = response.body;
    expect((await ctx.http().get(`/v1/webhook-endpoints/${response.body.id}`).set(AUTH)).body).toEqual(shown);
    const listed = await ctx.http().get('/v1/webhook-endpoints?limit=100').set(AUTH);
    expect(listed.body).toContainEqual(shown);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
  });

  it('delivers pet.created, signed so that the Standard Webhooks reference library verifies it, with the 201 body as its object', async () => {
    const { secret } = await endpointAt('/pets-only', ['pet.created']);
    const pet = await createPet('Signed', { 'X-Request-Id': 'signed-create-1', 'Idempotency-Key': 'signed-create' });
    const [delivery] = (await receiver.waitFor('/pets-only', 1)).filter((d) => JSON.parse(d.body).data.object.id === pet.id);
    expect(delivery).toBeDefined();
    const verified = new Webhook(secret).verify(delivery.body, headersOf(delivery)) as Record<string, unknown>;
    expect(verified).toEqual({
      id: delivery.headers['webhook-id'],
      type: 'pet.created',
      createdAt: expect.any(String),
      apiVersion: expect.any(String),
      // The request that caused it (1.5.0): its X-Request-Id, which the request log files it under.
      request: { id: 'signed-create-1', idempotencyKey: 'signed-create' },
      data: { object: pet },
      // A live event (1.6.0): false for a sandbox's.
      livemode: true,
    });
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['user-agent']).toMatch(/^petstore-webhooks\//);
    expect(() => new Webhook(secret).verify(delivery.body.replace('Signed', 'Forged'), headersOf(delivery))).toThrow();

    const logged = await eventually(
      () => event(String(delivery.headers['webhook-id'])),
      (r) => r.body.deliveries?.[0]?.state === 'delivered',
    );
    expect(logged.status).toBe(200);
    expect(logged.body.deliveries).toEqual([
      {
        endpointId: expect.stringMatching(/^we_/),
        state: 'delivered',
        attempts: [{ attemptedAt: expect.any(String), status: 200, durationMs: expect.any(Number), responseBody: 'answered 200' }],
      },
    ]);
  });

  it('sends each endpoint only the types it subscribed to, and order.placed with the order', async () => {
    await endpointAt('/orders-only', ['order.placed']);
    const pet = await createPet('Ordered');
    const order = (await ctx.http().post('/v1/store/orders').set(AUTH).send({ petId: pet.id, quantity: 2 })).body;
    const [delivery] = await receiver.waitFor('/orders-only', 1);
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'order.placed', data: { object: order } });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(receiver.received.filter((d) => d.path === '/orders-only')).toHaveLength(1);
  });

  it('records an event exactly for what was written: none for a refused order, one for an idempotent create sent twice', async () => {
    const before = (await allEvents()).length;
    expectError(await ctx.http().post('/v1/store/orders').set(AUTH).send({ petId: 987654321, quantity: 1 }), 404, 'PET_NOT_FOUND');
    expect(await allEvents()).toHaveLength(before);
    const key = { 'Idempotency-Key': `webhooks-${kind}-${Date.now()}` };
    const first = await createPet('Once', key);
    const again = await createPet('Once', key);
    expect(again).toEqual(first);
    const created = (await allEvents('pet.created')).filter((e) => e.data.object.id === first.id);
    expect(created).toHaveLength(1);
    expect(await allEvents()).toHaveLength(before + 1);
  });

  it('records no event for a create rolled back after its event was inserted, and one when the same request then commits', async () => {
    const dataSource = ctx.app.get(DataSource);
    const count = async (sql: string) => Number((await dataSource.query(sql))[0].n);
    // A keyed create's last statement, after the pet's insert and its event's, completes its idempotency
    // record: failing that one rolls back a transaction whose event row was written.
    await dataSource.query(
      kind === 'mysql'
        ? "CREATE TRIGGER doomed_create BEFORE UPDATE ON idempotency_records FOR EACH ROW BEGIN IF NEW.response_body LIKE '%Doomed%' " +
            "THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'rolled back on purpose'; END IF; END"
        : "CREATE TRIGGER doomed_create BEFORE UPDATE ON idempotency_records WHEN NEW.response_body LIKE '%Doomed%' " +
            "BEGIN SELECT RAISE(ABORT, 'rolled back on purpose'); END",
    );
    const key = { 'Idempotency-Key': `doomed-${kind}-${Date.now()}` };
    try {
      const refused = await ctx.http().post('/v1/pets').set(AUTH).set(key).send({ name: 'Doomed', categoryId: 1 });
      expect(refused.status).toBeGreaterThanOrEqual(500);
      expect(await count("SELECT COUNT(*) AS n FROM pets WHERE name = 'Doomed'")).toBe(0);
      expect(await count("SELECT COUNT(*) AS n FROM events WHERE payload LIKE '%Doomed%'")).toBe(0);
    } finally {
      await dataSource.query('DROP TRIGGER doomed_create');
    }
    const committed = await createPet('Doomed', key);
    expect((await allEvents('pet.created')).filter((e) => e.data.object.id === committed.id)).toHaveLength(1);
  });

  it('retries a failed attempt with the same webhook-id, and logs every attempt', async () => {
    const { id } = await endpointAt('/flaky', ['pet.created'], (nth) => (nth === 0 ? 500 : nth === 1 ? 'hang' : 200));
    const pet = await createPet('Retried');
    const deliveries = (await receiver.waitFor('/flaky', 3, 15_000)).filter((d) => JSON.parse(d.body).data.object.id === pet.id);
    expect(deliveries).toHaveLength(3);
    expect(new Set(deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    const toFlaky = (r: {
      body: { deliveries?: { endpointId: string; state: string; attempts: { status?: number; error?: string }[] }[] };
    }) => r.body.deliveries?.find((d) => d.endpointId === id);
    const logged = await eventually(
      () => event(String(deliveries[0].headers['webhook-id'])),
      (r) => toFlaky(r)?.state === 'delivered',
    );
    const { attempts } = toFlaky(logged)!;
    expect(attempts.map((a: { status?: number }) => a.status)).toEqual([500, undefined, 200]);
    expect(attempts[1].error).toMatch(/within 1500 ms/);
  });

  it('disables an endpoint that answers 410 Gone at once', async () => {
    const { id } = await endpointAt('/gone', ['pet.created'], () => 410);
    await createPet('Unwanted');
    await receiver.waitFor('/gone', 1);
    const endpoint = await eventually(
      () => ctx.http().get(`/v1/webhook-endpoints/${id}`).set(AUTH),
      (r) => r.body.enabled === false,
    );
    expect(endpoint.body).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/410/) });
  });

  it('gives up after the schedule, disables an endpoint that never answered, and recovers what failed once enabled', async () => {
    let down = true;
    const { id } = await endpointAt('/down', ['pet.created'], () => (down ? 503 : 200));
    const since = new Date(Date.now() - 1000).toISOString();
    const pet = await createPet('Backlogged');
    await receiver.waitFor('/down', 3, 15_000);
    const disabled = await eventually(
      () => ctx.http().get(`/v1/webhook-endpoints/${id}`).set(AUTH),
      (r) => r.body.enabled === false,
    );
    expect(disabled.body.disabledReason).toMatch(/retry schedule/);
    down = false;
    expect((await ctx.http().post(`/v1/webhook-endpoints/${id}/enable`).set(AUTH)).body.enabled).toBe(true);
    const recovered = await ctx.http().post(`/v1/webhook-endpoints/${id}/recover`).set(AUTH).send({ since });
    expect({ status: recovered.status, body: recovered.body }).toEqual({ status: 202, body: { queued: 1 } });
    const deliveries = await receiver.waitFor('/down', 4);
    expect(JSON.parse(deliveries[3].body).data.object).toEqual(pet);
    expect(deliveries[3].headers['webhook-id']).toBe(deliveries[0].headers['webhook-id']);
  });

  it('signs with both secrets while one rolls, each verifying on its own', async () => {
    const { id, secret: old } = await endpointAt('/rolling', ['pet.created']);
    const rotated = await ctx.http().post(`/v1/webhook-endpoints/${id}/rotate-secret`).set(AUTH);
    expect(rotated.status).toBe(200);
    const { secret, previousSecretExpiresAt } = rotated.body;
    expect(Date.parse(previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await createPet('Rolled');
    const [delivery] = await receiver.waitFor('/rolling', 1);
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const key of [secret, old]) expect(() => new Webhook(key).verify(delivery.body, headersOf(delivery))).not.toThrow();
  });

  it('sends a test event to that endpoint alone, and redelivers an event on request', async () => {
    const { id } = await endpointAt('/tested', ['order.placed']);
    const sent = await ctx.http().post(`/v1/webhook-endpoints/${id}/test`).set(AUTH);
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'webhook.test' });
    const [delivery] = await receiver.waitFor('/tested', 1);
    expect(delivery.headers['webhook-id']).toBe(sent.body.id);
    const again = await eventually(
      () => ctx.http().post(`/v1/events/${sent.body.id}/redeliver`).set(AUTH).send({ endpointId: id }),
      (r) => r.body.queued === 1,
    );
    expect(again.status).toBe(202);
    const both = await receiver.waitFor('/tested', 2);
    expect(both[1].headers['webhook-id']).toBe(sent.body.id);
    expect(receiver.received.filter((d) => d.headers['webhook-id'] === sent.body.id)).toHaveLength(2);
  });

  it('costs at most the time-out for an answer that trickles, and reads no more than 64 KiB of a huge one', async () => {
    await endpointAt('/trickle', ['pet.created'], () => 'trickle');
    await endpointAt('/huge', ['pet.created'], () => 'huge');
    await createPet('Patient');
    const [huge] = await receiver.waitFor('/huge', 1);
    const logged = await eventually(
      () => event(String(huge.headers['webhook-id'])),
      (r) => (r.body.deliveries ?? []).every((d: { attempts: unknown[] }) => d.attempts.length > 0),
    );
    const attempts = logged.body.deliveries.map(
      (d: { attempts: { status?: number; durationMs: number; error?: string; responseBody?: string }[] }) => d.attempts[0],
    );
    const trickled = attempts.find((a: { error?: string }) => a.error);
    expect(trickled.durationMs).toBeLessThan(2500);
    const read = attempts.find((a: { status?: number; responseBody?: string }) => a.status === 200 && a.responseBody?.startsWith('xxx'));
    expect(read.responseBody).toHaveLength(1024);
  });

  it('answers the errors of the contract for bad input and unknown ids', async () => {
    for (const body of [
      { url: 'ftp://example.com/', events: ['*'] },
      { url: 'not a url', events: ['*'] },
      { url: 'https://example.com/', events: [] },
      { url: 'https://example.com/', events: ['pet.adopted'] },
      { url: 'https://user:pw@example.com/', events: ['*'] },
      { url: 'https://169.254.169.254/latest', events: ['*'] },
    ])
      expectError(await createEndpoint(body), 400, 'VALIDATION_FAILED');
    expectError(await ctx.http().get('/v1/webhook-endpoints/we_nothing').set(AUTH), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
    expectError(await ctx.http().delete('/v1/webhook-endpoints/we_nothing').set(AUTH), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
    expectError(await ctx.http().get('/v1/events/evt_nothing').set(AUTH), 404, 'EVENT_NOT_FOUND');
    expectError(await ctx.http().get('/v1/events?type=pet.adopted').set(AUTH), 400, 'VALIDATION_FAILED');
    expectError(
      await ctx.http().post('/v1/webhook-endpoints/we_nothing/recover').set(AUTH).send({ since: 'yesterday' }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('lets an endpoint that never answers hold no more than its share: another endpoint gets every event at once', async () => {
    let answering: Reply = 500;
    const stuck = await endpointAt('/never', ['pet.created'], () => answering);
    await endpointAt('/prompt', ['order.placed']);
    const started = new Date().toISOString();
    const pets = [];
    for (let i = 0; i < 24; i++) pets.push(await createPet(`Crowd ${i}`));
    await eventually(
      () => ctx.http().get(`/v1/webhook-endpoints/${stuck.id}`).set(AUTH),
      (r) => r.body.enabled === false,
    );
    // Its 24 deliveries due again at once, to an endpoint that now never answers: were its share
    // not capped in each claim, they would fill every slot for the 1.5 s time-out.
    answering = 'hang';
    expect((await ctx.http().post(`/v1/webhook-endpoints/${stuck.id}/enable`).set(AUTH)).status).toBe(200);
    const recovered = await ctx.http().post(`/v1/webhook-endpoints/${stuck.id}/recover`).set(AUTH).send({ since: started });
    // Those that failed are queued again; the rest were still pending, due again now it is enabled.
    expect(recovered.body.queued).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const placedAt = new Map<number, number>();
    for (const pet of pets.slice(0, 5)) {
      const order = await ctx.http().post('/v1/store/orders').set(AUTH).send({ petId: pet.id, quantity: 1 });
      expect(order.status).toBe(201);
      placedAt.set(order.body.id, Date.now());
    }
    const prompt = await receiver.waitFor('/prompt', 5);
    const lateness = prompt.map((delivery) => delivery.at - placedAt.get(JSON.parse(delivery.body).data.object.id)!);
    expect(Math.max(...lateness)).toBeLessThan(1_000);
    expect((await ctx.http().delete(`/v1/webhook-endpoints/${stuck.id}`).set(AUTH)).status).toBe(204);
  });

  it('counts attempts by outcome with their latency, deliveries ended and the backlog, in /metrics', async () => {
    await endpointAt('/metered', ['pet.created'], (nth) => (nth === 0 ? 500 : 200));
    const stuck = await endpointAt('/stuck', ['pet.created'], () => 'hang');
    const scrape = async () => (await ctx.http().get('/metrics')).text;
    const value = (text: string, series: string) => {
      const line = text.split('\n').find((row) => row.startsWith(`${series} `));
      return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
    };
    const before = await scrape();
    for (let i = 0; i < 6; i++) await createPet(`Metered ${i}`);

    // Four attempts to /stuck hang (its share of the slots); the other two wait, due, counted and ageing.
    const waiting = await eventually(scrape, (text) => value(text, 'petstore_webhook_backlog_age_seconds{stage="delivery"}') > 0.3);
    expect(value(waiting, 'petstore_webhook_backlog_age_seconds{stage="delivery"}')).toBeGreaterThan(0.3);
    expect(value(waiting, 'petstore_webhook_backlog_deliveries')).toBeGreaterThanOrEqual(1);
    expect(value(waiting, 'petstore_webhook_backlog_age_seconds{stage="dispatch"}')).toBeGreaterThanOrEqual(0);

    await receiver.waitFor('/metered', 7);
    const grew = (text: string, series: string) => (value(text, series) || 0) - (value(before, series) || 0);
    const after = await eventually(scrape, (text) => grew(text, 'petstore_webhook_attempts_total{outcome="timeout"}') >= 4);
    expect(grew(after, 'petstore_webhook_attempts_total{outcome="rejected"}')).toBeGreaterThanOrEqual(1);
    expect(grew(after, 'petstore_webhook_attempts_total{outcome="delivered"}')).toBeGreaterThanOrEqual(6);
    expect(grew(after, 'petstore_webhook_attempts_total{outcome="timeout"}')).toBeGreaterThanOrEqual(4);
    expect(grew(after, 'petstore_webhook_deliveries_total{outcome="delivered"}')).toBeGreaterThanOrEqual(6);
    expect(grew(after, 'petstore_webhook_attempt_duration_seconds_count{outcome="timeout"}')).toBeGreaterThanOrEqual(4);
    expect(after).toMatch(/^petstore_webhook_attempt_duration_seconds_bucket\{le="2.5",outcome="timeout"\} \d+$/m);
    expect((await ctx.http().delete(`/v1/webhook-endpoints/${stuck.id}`).set(AUTH)).status).toBe(204);
  });

  it('deletes an endpoint: nothing more is sent to it', async () => {
    const { id } = await endpointAt('/deleted', ['pet.created']);
    expect((await ctx.http().delete(`/v1/webhook-endpoints/${id}`).set(AUTH)).status).toBe(204);
    expectError(await ctx.http().get(`/v1/webhook-endpoints/${id}`).set(AUTH), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
    await createPet('Unheard');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.received.filter((d) => d.path === '/deleted')).toHaveLength(0);
  });

  it('is driven through the SDK: endpoints, events with for await, and a delivery checked by webhooks.verify', async () => {
    const sdk = new PetStore({
      apiKey: TEST_API_KEY,
      baseUrl: `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}/v1`,
    });
    const endpoint = await sdk.webhookEndpoints.create({ url: `${receiver.url}/sdk`, events: ['pet.created'], description: 'SDK' });
    expect(await sdk.webhookEndpoints.get(endpoint.id)).toMatchObject({ id: endpoint.id, enabled: true, events: ['pet.created'] });
    const pet = await sdk.pets.create({ name: 'Verified', categoryId: 1 });
    const [delivery] = await receiver.waitFor('/sdk', 1);

    const received = await sdk.webhooks.verify(delivery.body, delivery.headers, endpoint.secret);
    if (received.type !== 'pet.created') throw new Error(`expected pet.created, got ${received.type}`);
    expect(received.data.object).toEqual(pet);
    await expect(webhooks.verify(delivery.body.replace('Verified', 'Forged'), delivery.headers, endpoint.secret)).rejects.toThrow(
      WebhookVerificationError,
    );

    const walked: string[] = [];
    for await (const listed of sdk.events.list({ type: 'pet.created', limit: 2 })) walked.push(listed.id);
    expect(walked).toContain(received.id);
    const logged = await eventually(
      () => sdk.events.get(received.id),
      (read) => read.deliveries.some((one) => one.endpointId === endpoint.id && one.state === 'delivered'),
    );
    expect(logged.deliveries.find((one) => one.endpointId === endpoint.id)?.attempts[0]).toMatchObject({ status: 200 });
    expect(await sdk.events.redeliver(received.id, { endpointId: endpoint.id })).toBe(1);
    await receiver.waitFor('/sdk', 2);

    const rotated = await sdk.webhookEndpoints.rotateSecret(endpoint.id);
    expect((await sdk.webhookEndpoints.disable(endpoint.id)).enabled).toBe(false);
    expect((await sdk.webhookEndpoints.enable(endpoint.id)).enabled).toBe(true);
    const test = await sdk.webhookEndpoints.test(endpoint.id);
    const [, , tested] = await receiver.waitFor('/sdk', 3);
    expect(await webhooks.verify(tested.body, tested.headers, rotated.secret)).toMatchObject({ id: test.id, type: 'webhook.test' });
    expect(await sdk.webhookEndpoints.recover(endpoint.id, new Date(Date.now() - 60_000))).toBe(0);
    const endpoints: string[] = [];
    for await (const listed of sdk.webhookEndpoints.list({ limit: 1 })) endpoints.push(listed.id);
    expect(endpoints).toContain(endpoint.id);

    await sdk.webhookEndpoints.delete(endpoint.id);
    const gone = await sdk.webhookEndpoints.get(endpoint.id).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone).toMatchObject({ status: 404, code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
  });
});

describe.each(DATABASE_KINDS)('webhooks without allowed networks on %s', (kind) => {
  const ctx: AppContext = useApp(kind, { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_RETRY_SCHEDULE: '0' });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('never connects to a name that resolves to loopback, and says why in the log', async () => {
    const url = receiver.url.replace('127.0.0.1', 'localhost');
    const endpoint = await ctx
      .http()
      .post('/v1/webhook-endpoints')
      .set(AUTH)
      .send({ url, events: ['pet.created'] });
    expect(endpoint.status).toBe(201);
    await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Private', categoryId: 1 });
    const [created] = (await ctx.http().get('/v1/events?type=pet.created').set(AUTH)).body;
    const logged = await eventually(
      () => ctx.http().get(`/v1/events/${created.id}`).set(AUTH),
      (r) => r.body.deliveries?.[0]?.state === 'failed',
    );
    expect(logged.body.deliveries[0].attempts).toEqual([
      { attemptedAt: expect.any(String), durationMs: expect.any(Number), error: expect.stringMatching(/loopback/) },
    ]);
    expect(receiver.received).toHaveLength(0);
    expect((await ctx.http().get('/metrics')).text).toMatch(/^petstore_webhook_attempts_total\{outcome="blocked"\} [1-9]/m);
  });

  it('refuses an address literal in a private, loopback or metadata range at registration', async () => {
    for (const url of [
      'http://127.0.0.1:9/',
      'http://10.1.2.3/',
      'http://[::1]/',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:169.254.169.254]/',
    ])
      expectError(
        await ctx
          .http()
          .post('/v1/webhook-endpoints')
          .set(AUTH)
          .send({ url, events: ['*'] }),
        400,
        'VALIDATION_FAILED',
      );
  });
});
