import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebhookEndpointsRepository } from '../../src/webhook-delivery/webhook-endpoints.repository.js';
import { AUTH, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';
import { startReceiver, WEBHOOK_ENV, type WebhookReceiver } from './support/webhook-receiver.js';

/**
 * An event goes to every endpoint made before it, however the deliverer's reads fall: a pass read
 * the endpoints, then fanned out the events written meanwhile to what it had read, so an endpoint
 * and then a pet made while the endpoints were being read (a busy machine's few hundred
 * milliseconds) never got that pet's event (seen in CI: webhook-scopes, on MySQL).
 */
describe.each(DATABASE_KINDS)('fanning an event out, on %s', (kind) => {
  const ctx = useApp(kind, WEBHOOK_ENV);
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  const createEndpoint = async (path: string) =>
    (
      await ctx
        .http()
        .post('/v1/webhook-endpoints')
        .set(AUTH)
        .send({ url: `${receiver.url}${path}`, events: ['pet.created'] })
        .expect(201)
    ).body.id as string;
  const createPet = async (name: string) =>
    (await ctx.http().post('/v1/pets').set(AUTH).send({ name, categoryId: 1 }).expect(201)).body.id as number;
  const petsHeardAt = (path: string) =>
    receiver.received.filter((delivery) => delivery.path === path).map(({ body }) => JSON.parse(body).data.object.id as number);

  it('sends an endpoint the event of a pet made after it while a pass was reading the endpoints', async () => {
    await createEndpoint('/first');
    // The next read of the endpoints holds what it read until the test lets it go on.
    const endpoints = ctx.app.get(WebhookEndpointsRepository);
    const everyEnabled = endpoints.everyEnabled.bind(endpoints);
    let read!: () => void;
    const reading = new Promise<void>((started) => (read = started));
    let goOn!: () => void;
    const held = new Promise<void>((release) => (goOn = release));
    let holding = true;
    endpoints.everyEnabled = async () => {
      const stored = await everyEnabled();
      if (holding) {
        holding = false;
        read();
        await held;
      }
      return stored;
    };

    try {
      const before = await createPet('Before');
      await reading;
      // While that pass holds the endpoints it read: an endpoint, then a pet after it.
      await createEndpoint('/second');
      const after = await createPet('After');
      goOn();
      await receiver.waitFor('/first', 2, 10_000);
      // The endpoint made after the first pet gets the second one's event, and only that.
      expect((await receiver.waitFor('/second', 1, 10_000)).length).toBe(1);
      expect(petsHeardAt('/first').sort()).toEqual([before, after].sort());
      expect(petsHeardAt('/second')).toEqual([after]);
    } finally {
      goOn();
      endpoints.everyEnabled = everyEnabled;
    }
  }, 30_000);
});
