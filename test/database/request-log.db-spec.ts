import { beforeAll, describe, expect, it } from '@jest/globals';
import type { LoggedRequest } from '../../src/request-log/request-log.repository.js';
import { RequestLogRepository } from '../../src/request-log/request-log.repository.js';
import { DATABASE_KINDS } from '../e2e/support/test-database.js';
import { useDatabase } from './support/use-database.js';

/**
 * The request log's table on a real database, without the service: a batch of the writer's size
 * goes in as several statements of literals, and every value comes back as written, the widest
 * and the least plain ones too (a quote, a backslash, text outside ASCII, the longest of each).
 */
describe.each(DATABASE_KINDS)('the request log table on %s', (kind) => {
  let entries: RequestLogRepository;
  const ctx = useDatabase(kind, [RequestLogRepository]);
  beforeAll(() => {
    entries = ctx.module.get(RequestLogRepository);
  });

  const entry = (i: number, keyId: string): LoggedRequest => ({
    environment: 0,
    requestId: `rl-db-${i}`,
    keyId,
    createdAt: new Date(Date.UTC(2026, 10, 26, 12, 0, 0, i)),
    method: 'PATCH',
    path: i === 7 ? `/v1/pets/1?q=${'x'.repeat(2048 - 13)}` : `/v1/pets/${i}`,
    operation: i % 2 === 0 ? 'updatePet' : null,
    status: i % 3 === 0 ? 422 : 200,
    statusClass: i % 3 === 0 ? 4 : 2,
    durationMs: i,
    idempotencyKey: i === 5 ? "it's a \\ key" : null,
    replayed: i % 4 === 0,
    errorCode: i % 3 === 0 ? 'VALIDATION_FAILED' : null,
    errorMessage: i === 9 ? `"Léa" 🐕 ${'é'.repeat(1010)}` : i % 3 === 0 ? 'name must be a string' : null,
    count: i % 5 === 0 ? i + 1 : 1,
    clientAddress: '2001:db8::1',
    userAgent: i === 11 ? 'ü'.repeat(255) : 'jest',
  });

  it('writes a batch of 250, more than one statement takes, and reads each back as written', async () => {
    const keyId = `rl-db-${kind}`;
    const written = Array.from({ length: 250 }, (_, i) => entry(i, keyId));
    await entries.insert(written);
    const read = [];
    for (let after = 0; ;) {
      const page = (await entries.after(after, 100)).filter((stored) => stored.keyId === keyId);
      if (page.length === 0) break;
      read.push(...page);
      after = page.at(-1)!.rowId;
    }
    expect(read.map(({ rowId: _rowId, ...stored }) => stored)).toEqual(written);
  });

  it('adds to the count of one entry, found by its request id, key, time and status, and of no other', async () => {
    const keyId = `rl-db-count-${kind}`;
    const first = { ...entry(1, keyId), requestId: 'rl-db-refused', status: 429, statusClass: 4, count: 3 };
    // The same request id, sent again by the client: another entry, another time and status.
    const again = { ...first, createdAt: new Date(first.createdAt.getTime() + 1), status: 201, statusClass: 2, count: 1 };
    await entries.insert([first, again]);
    await entries.addToCount(first, 237);
    const stored = (await entries.byRequestIdOfAnyKey('rl-db-refused')).map(({ status, count }) => [status, count]);
    expect(stored).toEqual([
      [201, 1],
      [429, 240],
    ]);
  });

  it('reads every key’s entries before a row, newest first', async () => {
    const last = await entries.lastRowId();
    const before = await entries.before(last + 1, 3);
    const ids = before.map((stored) => stored.rowId);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toBe(last);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect((await entries.before(ids[2], 1))[0].rowId).toBeLessThan(ids[2]);
  });
});
