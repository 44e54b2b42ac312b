import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { id } from '../../src/database/columns.js';
import type { Sql } from '../../src/database/sql.js';
import { Environment } from '../../src/environments/environment.js';
import { DeliveryLogRepository } from '../../src/webhook-delivery/delivery-log.repository.js';
import type { ClaimedDelivery } from '../../src/webhook-delivery/claimed-delivery.js';
import { DeliveryQueueRepository } from '../../src/webhook-delivery/delivery-queue.repository.js';
import { WebhookEndpointsRepository } from '../../src/webhook-delivery/webhook-endpoints.repository.js';
import { DATABASE_KINDS } from '../e2e/support/test-database.js';
import { useDatabase } from './support/use-database.js';

/**
 * The delivery queue and log on a real database, without the service: the migrations' schema, the
 * TypeORM connection and the repositories. What only these can show: what happens to a claim
 * another holder took over, which no request can bring about; and that the queue, one for every
 * environment, fans an event out to its own environment's endpoints only.
 */
describe.each(DATABASE_KINDS)('the delivery queue on %s', (kind) => {
  let sql: Sql;
  let queue: DeliveryQueueRepository;
  let log: DeliveryLogRepository;
  let endpoints: WebhookEndpointsRepository;
  let endpointRowId: number;
  let sequence = 0;
  const live = Environment.LIVE;

  const ctx = useDatabase(kind, [DeliveryQueueRepository, DeliveryLogRepository, WebhookEndpointsRepository]);
  beforeAll(() => {
    sql = ctx.sql;
    queue = ctx.module.get(DeliveryQueueRepository);
    log = ctx.module.get(DeliveryLogRepository);
    endpoints = ctx.module.get(WebhookEndpointsRepository);
  });

  const rowIdOf = async (table: string, publicId: string, environment = live) =>
    (await sql.rows(`SELECT id FROM ${table} WHERE environment = ? AND public_id = ?`, [environment.id, publicId], (row) => id(row.id)))[0];

  /** An endpoint row of `environment`, enabled, as the API writes one. */
  const endpoint = async (environment = live, createdAt = new Date()) => {
    const publicId = `we_queue_${++sequence}`;
    await sql.run(
      'INSERT INTO webhook_endpoints (environment, public_id, url, events, description, secret, enabled, created_at) VALUES (?, ?, ?, ?, NULL, ?, 1, ?)',
      [environment.id, publicId, 'https://hooks.example.com/', '*', 'whsec_c2VjcmV0', createdAt],
    );
    return rowIdOf('webhook_endpoints', publicId, environment);
  };

  /** An event row of `environment`, already fanned out unless `dispatched` is false, so that only the deliveries a test queues exist. */
  const event = async (environment = live, dispatched = true) => {
    const publicId = `evt_queue_${++sequence}`;
    const payload = JSON.stringify({ id: publicId, type: 'pet.created', data: { object: {} } });
    await sql.run(
      'INSERT INTO events (environment, public_id, type, created_at, payload, dispatched, only_endpoint_id) VALUES (?, ?, ?, ?, ?, ?, NULL)',
      [environment.id, publicId, 'pet.created', new Date(), payload, dispatched],
    );
    return { publicId, rowId: await rowIdOf('events', publicId, environment) };
  };

  const claim = () => queue.claim(new Map([[endpointRowId, 3]]), new Date(), new Date(Date.now() + 60_000), 3);
  const delivered = (claimed: readonly ClaimedDelivery[]) =>
    queue.finish(
      claimed.map((delivery) => ({
        delivery,
        attempt: { attemptedAt: new Date(), status: 204, durationMs: 3, error: null, responseBody: null },
        result: { kind: 'delivered' as const },
      })),
    );
  const stateOf = async (eventRowId: number) => {
    const [record] = await log.deliveriesOf(live, eventRowId);
    return { state: record.state, attempts: record.attempts.length };
  };

  beforeEach(async () => {
    endpointRowId = await endpoint();
  });

  it("records a batch of attempts whose claim one lost meanwhile: that one stays the new holder's, and every attempt is logged", async () => {
    const events = [await event(), await event(), await event()];
    for (const { rowId } of events) expect(await log.redeliver(live, rowId, endpointRowId, new Date())).toBe(true);

    const claimed = await claim();
    expect(claimed.map(({ eventId }) => eventId).sort()).toEqual(events.map(({ publicId }) => publicId).sort());
    const lost = claimed[1];
    await sql.run("UPDATE webhook_deliveries SET claim_token = 'another-instance' WHERE environment = 0 AND id = ?", [lost.id]);
    expect(await delivered(claimed)).toEqual([true, false, true]);

    for (const { publicId, rowId } of events)
      expect(await stateOf(rowId)).toEqual({ state: publicId === lost.eventId ? 'pending' : 'delivered', attempts: 1 });
    const [token] = await sql.rows(
      'SELECT claim_token AS token FROM webhook_deliveries WHERE environment = 0 AND id = ?',
      [lost.id],
      (row) => row.token,
    );
    expect(token).toBe('another-instance');

    // All held and all delivered: one batch, every claim its own.
    await sql.run('UPDATE webhook_deliveries SET claim_token = NULL, claimed_until = NULL WHERE environment = 0 AND id = ?', [lost.id]);
    expect(await log.redeliver(live, events[0].rowId, endpointRowId, new Date())).toBe(true);
    const both = await claim();
    expect(both).toHaveLength(2);
    expect(await delivered(both)).toEqual([true, true]);
    for (const { rowId } of events) expect((await stateOf(rowId)).state).toBe('delivered');
  });

  it('queues nothing again for a delivery still pending, and answers so', async () => {
    const { rowId } = await event();
    expect(await log.redeliver(live, rowId, endpointRowId, new Date())).toBe(true);
    expect(await log.redeliver(live, rowId, endpointRowId, new Date())).toBe(false);
    const [n] = await sql.rows('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE environment = 0 AND event_id = ?', [rowId], (row) =>
      Number(row.n),
    );
    expect(Number(n)).toBe(1);
  });

  it("fans out each event to its own environment's endpoints only, and records its deliveries and attempts there", async () => {
    const sandbox = Environment.of(9_000_001);
    const other = Environment.of(9_000_002);
    const before = new Date(Date.now() - 60_000);
    const liveEndpoint = await endpoint(live, before);
    const sandboxEndpoint = await endpoint(sandbox, before);
    const otherEndpoint = await endpoint(other, before);
    const ours = new Set([liveEndpoint, sandboxEndpoint, otherEndpoint]);
    const receiving = (await endpoints.everyEnabled())
      .filter(({ rowId }) => ours.has(rowId))
      .map((stored) => ({ ...stored, makerScopes: null }));
    expect(receiving.map(({ environment }) => environment.id).sort()).toEqual([live.id, sandbox.id, other.id].sort());

    const liveEvent = await event(live, false);
    const sandboxEvent = await event(sandbox, false);
    const upTo = await queue.lastUndispatched();
    expect(upTo).toBe(sandboxEvent.rowId);
    // Written after the endpoints it goes to were read: left to the next pass, which reads them again.
    const later = await event(live, false);
    expect(await queue.dispatch(receiving, new Date(), 10, upTo!)).toBe(2);
    expect(await queue.lastUndispatched()).toBe(later.rowId);
    // Out of the way of the claims below, as if fanned out to no endpoint.
    await sql.run('UPDATE events SET dispatched = 1 WHERE id = ? /* every environment */', [later.rowId]);
    expect(await queue.lastUndispatched()).toBeUndefined();

    const deliveries = await sql.rows(
      `SELECT environment, event_id AS eventId, endpoint_id AS endpointId FROM webhook_deliveries WHERE event_id IN (?, ?) /* every environment */`,
      [liveEvent.rowId, sandboxEvent.rowId],
      (row) => ({ environment: Number(row.environment), eventId: id(row.eventId), endpointId: id(row.endpointId) }),
    );
    expect(deliveries.sort((a, b) => a.environment - b.environment)).toEqual([
      { environment: live.id, eventId: liveEvent.rowId, endpointId: liveEndpoint },
      { environment: sandbox.id, eventId: sandboxEvent.rowId, endpointId: sandboxEndpoint },
    ]);

    // Claimed, attempted and recorded in the delivery's own environment, and shown only there.
    const claimed = await queue.claim(new Map([...ours].map((rowId) => [rowId, 3])), new Date(), new Date(Date.now() + 60_000), 10);
    expect(claimed.map(({ environment, eventId }) => [environment.id, eventId]).sort()).toEqual(
      [
        [live.id, liveEvent.publicId],
        [sandbox.id, sandboxEvent.publicId],
      ].sort(),
    );
    expect(await delivered(claimed)).toEqual([true, true]);
    const [sandboxDelivery] = await log.deliveriesOf(sandbox, sandboxEvent.rowId);
    expect(sandboxDelivery).toMatchObject({ state: 'delivered', attempts: [expect.objectContaining({ status: 204 })] });
    expect(await log.deliveriesOf(live, sandboxEvent.rowId)).toEqual([]);
    expect(await log.deliveriesOf(other, sandboxEvent.rowId)).toEqual([]);
    const attempts = await sql.rows(
      'SELECT a.environment FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id AND d.environment = a.environment WHERE d.event_id = ? /* every environment */',
      [sandboxEvent.rowId],
      (row) => Number(row.environment),
    );
    expect(attempts).toEqual([sandbox.id]);

    // Nor does a recovery of another environment queue it again.
    await sql.run("UPDATE webhook_deliveries SET state = 'failed' WHERE environment = ? AND event_id = ?", [
      sandbox.id,
      sandboxEvent.rowId,
    ]);
    expect(await log.recover(other, sandboxEndpoint, before, new Date())).toBe(0);
    expect(await log.recover(sandbox, sandboxEndpoint, before, new Date())).toBe(1);
  });
});
