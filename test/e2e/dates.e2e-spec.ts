import { beforeAll, describe, expect, it } from '@jest/globals';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

/** ISO 8601 forms that are no RFC 3339 date-time: 1.4.0 took some for `since` (a 500 on SQLite, a 202 that matched everything on MySQL). */
const NOT_RFC_3339 = [
  '2026-W48-2', // week date
  '2030-W01-1',
  '2026-330', // ordinal date
  '2026-333T10:00:00Z',
  '20261201T093000Z', // basic format
  '2026-12-01T09:30:00', // no offset
  '2026-12-01', // a date alone
  '2026-12-01 09:30:00Z', // a space for T
  '0999-12-31T23:59:59Z', // before the year 1000
  '1000-01-01T00:30:00+01:00', // 999 in UTC
  '2026-02-30T00:00:00Z', // no such day
  '2026-12-01T24:00:00Z',
  '2026-12-01T09:30:60Z', // a leap second
  '2026-12-01T09:30:00+24:00',
];

/** RFC 3339 date-times in the rule, and the UTC instant each names, as answered. */
const RFC_3339 = [
  ['2026-12-01t09:30:00z', '2026-12-01T09:30:00.000Z'], // T and Z in either case (RFC 3339 5.6)
  ['2026-12-01T09:30:00.123456789Z', '2026-12-01T09:30:00.123Z'],
  ['2026-12-01T11:30:00+02:00', '2026-12-01T09:30:00.000Z'],
  ['1000-01-01T00:00:00Z', '1000-01-01T00:00:00.000Z'],
  ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
] as const;

const WEBHOOK_ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };

describe.each(DATABASE_KINDS)('one rule for every date-time a client sends, on %s', (kind) => {
  const ctx = useApp(kind, WEBHOOK_ENV);
  let endpointId: string;
  let petId: number;

  beforeAll(async () => {
    const endpoint = await ctx
      .http()
      .post('/v1/webhook-endpoints')
      .set(AUTH)
      .send({ url: 'http://127.0.0.1:9/hooks', events: ['*'] });
    expect(endpoint.status).toBe(201);
    endpointId = endpoint.body.id;
    petId = (await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Dated', categoryId: 1 }).expect(201)).body.id;
  });

  const placeOrder = (shipDate: string) =>
    ctx.http().post('/v1/store/orders').set(AUTH).send({ petId, quantity: 1, status: 'placed', shipDate });
  const recover = (since: string) => ctx.http().post(`/v1/webhook-endpoints/${endpointId}/recover`).set(AUTH).send({ since });

  it.each(NOT_RFC_3339)('refuses %s as since and as shipDate, naming the field, and changes nothing', async (value) => {
    const recovered = await recover(value);
    expectError(recovered, 400, 'VALIDATION_FAILED');
    expect(recovered.body.message).toBe(
      'since must be an RFC 3339 date-time with an offset, such as 2026-12-01T09:30:00Z, in the years 1000 to 9999.',
    );
    const placed = await placeOrder(value);
    expectError(placed, 400, 'VALIDATION_FAILED');
    expect(placed.body.message).toMatch(/^shipDate must be an RFC 3339 date-time with an offset/);
    const orders = await ctx.http().get('/v1/store/orders').set(AUTH);
    expect(orders.body).toEqual([]);
  });

  it.each(RFC_3339)('takes %s as since and as shipDate alike, answered as %s', async (value, answered) => {
    expect(await recover(value)).toMatchObject({ status: 202, body: { queued: 0 } });
    const order = await ctx.http().post('/v1/store/orders').set(AUTH).send({ petId, quantity: 1, shipDate: value });
    expect(order.status).toBe(201);
    expect(order.body.shipDate).toBe(answered);
    const moved = await ctx.http().patch(`/v1/store/orders/${order.body.id}`).set(AUTH).send({ shipDate: value });
    expect(moved.status).toBe(200);
    expect(moved.body.shipDate).toBe(answered);
    await ctx.http().post(`/v1/store/orders/${order.body.id}/cancel`).set(AUTH).expect(200);
  });

  it('states the rule in the document, for both fields', async () => {
    const { components } = (await ctx.http().get('/v1/openapi.json')).body;
    for (const property of [components.schemas.Recovery.properties.since, components.schemas.NewOrder.properties.shipDate]) {
      expect(property).toMatchObject({ type: 'string', format: 'date-time' });
      expect(property.description).toContain('in the years 1000 to 9999');
      for (const [value] of RFC_3339) expect(value).toMatch(new RegExp(property.pattern));
      for (const value of NOT_RFC_3339.slice(0, 8)) expect(value).not.toMatch(new RegExp(property.pattern));
    }
  });
});
