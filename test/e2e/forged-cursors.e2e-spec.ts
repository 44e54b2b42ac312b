import { describe, expect, it } from '@jest/globals';
import { encodeCursor, type ListFilter, type TimePosition } from '../../src/pagination/cursor.js';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

/**
 * A cursor's check is a digest anyone can compute (issue 56): these cursors pass it, as a forger's
 * would, and name positions no page ever ends on. Each is a 400 naming `cursor`, never a 500.
 */
const FORGED_IDS: [string, unknown][] = [
  ['zero', 0],
  ['a negative id', -1],
  ['a fraction', 1.5],
  ['2^53, past the exact integers', 2 ** 53],
  ['1e300', 1e300],
  ['an id as a string', '5'],
  ['null', null],
  ['a time position', [Date.UTC(2026, 0, 1), 1]],
];

const FORGED_TIMES: [string, unknown][] = [
  ['a time past what a JavaScript Date holds (8.64e15+1)', [8.64e15 + 1, 1]],
  ['a time long before the year 1000 (-1e15)', [-1e15, 1]],
  ['the first instant of the year 10000 (253402300800000)', [253402300800000, 1]],
  ['the last instant before the year 1000', [Date.UTC(1000, 0, 1) - 1, 1]],
  ['a fractional time', [Date.UTC(2026, 0, 1) + 0.5, 1]],
  ['a time as a string', ['2026-01-01T00:00:00Z', 1]],
  ['a row id of 0', [Date.UTC(2026, 0, 1), 0]],
  ['a row id of 2^53', [Date.UTC(2026, 0, 1), 2 ** 53]],
  ['a position of three members', [Date.UTC(2026, 0, 1), 1, 1]],
  ['an id alone', 5],
];

/** Each listing: its path, the name its cursors carry, the filter of a request without one, and what a forger puts in. */
const LISTINGS: [string, string, ListFilter, [string, unknown][]][] = [
  ['/v1/pets', 'pets', { status: undefined, metadata: undefined }, FORGED_IDS],
  ['/v1/store/orders', 'orders', { status: undefined, metadata: undefined }, FORGED_IDS],
  ['/v1/events', 'events', { type: undefined }, FORGED_IDS],
  ['/v1/webhook-endpoints', 'webhook-endpoints', {}, FORGED_IDS],
  ['/v1/requests', 'requests', { status: undefined, operation: undefined, idempotencyKey: undefined }, FORGED_TIMES],
];

describe.each(DATABASE_KINDS)('forged cursors on %s', (kind) => {
  const ctx = useApp(kind);

  describe.each(LISTINGS)('%s', (path, listing, filter, forged) => {
    it.each(forged)('refuses a cursor of %s with a 400 naming cursor', async (_, position) => {
      const cursor = encodeCursor(position as number | TimePosition, listing, filter);
      const response = await ctx
        .http()
        .get(`${path}?cursor=${encodeURIComponent(cursor)}`)
        .set(AUTH);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/^cursor\b/);
    });

    it('still takes cursors of the first and last positions a page can end on', async () => {
      const positions: (number | TimePosition)[] =
        listing === 'requests'
          ? [
              [Date.UTC(1000, 0, 1), 1],
              [Date.UTC(10000, 0, 1) - 1, 2 ** 53 - 1],
            ]
          : [1, 2 ** 53 - 1];
      for (const position of positions) {
        const response = await ctx
          .http()
          .get(`${path}?cursor=${encodeURIComponent(encodeCursor(position, listing, filter))}`)
          .set(AUTH);
        expect(response.status).toBe(200);
      }
    });
  });
});
