import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { id } from '../../src/database/columns.js';
import type { Sql } from '../../src/database/sql.js';
import { DeliveryLogRepository } from '../../src/webhook-delivery/delivery-log.repository.js';
import type { ClaimedDelivery } from '../../src/webhook-delivery/claimed-delivery.js';
import { DeliveryQueueRepository } from '../../src/webhook-delivery/delivery-queue.repository.js';
import { DATABASE_KINDS } from '../e2e/support/test-database.js';
import { useDatabase } from './support/use-database.js';

/**
 * The delivery queue and log on a real database, without the service: the migrations' schema, the
 * TypeORM connection and the two repositories. What only these can show: what happens to a claim
 * another holder took over, which no request can bring about.
 */
describe.each(DATABASE_KINDS)('the delivery queue on %s', (kind) => {
  let sql: Sql;
  let queue: DeliveryQueueRepository;
  let log: DeliveryLogRepository;
  let endpointRowId: number;
  let sequence = 0;

  const ctx = useDatabase(kind, [DeliveryQueueRepository, DeliveryLogRepository]);
  beforeAll(() => {
    sql = ctx.sql;
    queue = ctx.module.get(DeliveryQueueRepository);
    log = ctx.module.get(DeliveryLogRepository);
  });

  const rowIdOf = async (table: string, publicId: string) =>
    (await sql.rows(`SELECT id FROM ${table} WHERE public_id = ?`, [publicId], (row) => id(row.id)))[0];

  /** An endpoint row, enabled, as the API writes one. */
  const endpoint = async () => {
    const publicId = `we_queue_${++sequence}`;
    await sql.run(
      'INSERT INTO webhook_endpoints (public_id, url, events, description, secret, enabled, created_at) VALUES (?, ?, ?, NULL, ?, 1, ?)',
      [publicId, 'https://hooks.example.com/', '*', 'whsec_c2VjcmV0', new Date()],
    );
    return rowIdOf('webhook_endpoints', publicId);
  };

  /** An event row, already fanned out, so that only the deliveries a test queues exist. */
  const event = async () => {
    const publicId = `evt_queue_${++sequence}`;
    const payload = JSON.stringify({ id: publicId, type: 'webhook.test', data: { object: {} } });
    await sql.run('INSERT INTO events (public_id, type, created_at, payload, dispatched, only_endpoint_id) VALUES (?, ?, ?, ?, 1, NULL)', [
      publicId,
      'webhook.test',
      new Date(),
      payload,
    ]);
    return { publicId, rowId: await rowIdOf('events', publicId) };
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
    const [record] = await log.deliveriesOf(eventRowId);
    return { state: record.state, attempts: record.attempts.length };
  };

  beforeEach(async () => {
    endpointRowId = await endpoint();
  });

  it("records a batch of attempts whose claim one lost meanwhile: that one stays the new holder's, and every attempt is logged", async () => {
    const events = [await event(), await event(), await event()];
    for (const { rowId } of events) expect(await log.redeliver(rowId, endpointRowId, new Date())).toBe(true);

    const claimed = await claim();
    expect(claimed.map(({ eventId }) => eventId).sort()).toEqual(events.map(({ publicId }) => publicId).sort());
    const lost = claimed[1];
    await sql.run("UPDATE webhook_deliveries SET claim_token = 'another-instance' WHERE id = ?", [lost.id]);
    expect(await delivered(claimed)).toEqual([true, false, true]);

    for (const { publicId, rowId } of events)
      expect(await stateOf(rowId)).toEqual({ state: publicId === lost.eventId ? 'pending' : 'delivered', attempts: 1 });
    const [token] = await sql.rows('SELECT claim_token AS token FROM webhook_deliveries WHERE id = ?', [lost.id], (row) => row.token);
    expect(token).toBe('another-instance');

    // All held and all delivered: one batch, every claim its own.
    await sql.run('UPDATE webhook_deliveries SET claim_token = NULL, claimed_until = NULL WHERE id = ?', [lost.id]);
    expect(await log.redeliver(events[0].rowId, endpointRowId, new Date())).toBe(true);
    const both = await claim();
    expect(both).toHaveLength(2);
    expect(await delivered(both)).toEqual([true, true]);
    for (const { rowId } of events) expect((await stateOf(rowId)).state).toBe('delivered');
  });

  it('queues nothing again for a delivery still pending, and answers so', async () => {
    const { rowId } = await event();
    expect(await log.redeliver(rowId, endpointRowId, new Date())).toBe(true);
    expect(await log.redeliver(rowId, endpointRowId, new Date())).toBe(false);
    const [n] = await sql.rows('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE event_id = ?', [rowId], (row) => Number(row.n));
    expect(Number(n)).toBe(1);
  });
});
