import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ValidationFailedException } from '../../src/errors/api-exception.js';
import { decodeCursor, decodeTimeCursor, encodeCursor, type TimePosition } from '../../src/pagination/cursor.js';

const EARLIEST = Date.UTC(1000, 0, 1);
const LATEST = Date.UTC(10000, 0, 1) - 1;

/** Numbers a forger would try: near every edge a database or a Date has, and anything else. */
const numbers = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 1,
    2 ** 63,
    8.64e15,
    8.64e15 + 1,
    -8.64e15 - 1,
    -1e15,
    253402300800000,
  ),
  fc.constantFrom(EARLIEST - 1, EARLIEST, LATEST, LATEST + 1, -0, 0.5),
  fc.integer({ min: EARLIEST - 1000, max: EARLIEST + 1000 }),
  fc.integer({ min: LATEST - 1000, max: LATEST + 1000 }),
  fc.maxSafeInteger(),
  fc.double(),
);
/** Anything a payload can decode to: a number, a pair of anything, any JSON. */
const positions = fc.oneof(numbers, fc.tuple(fc.oneof(numbers, fc.jsonValue()), fc.oneof(numbers, fc.jsonValue())), fc.jsonValue());

/** A position as the cursor's JSON carries it (-0 as 0). */
const asSent = (position: unknown): unknown => JSON.parse(JSON.stringify(position)) as unknown;

/** The refusal every bad cursor gets, and no other error. */
function refusal(decode: () => unknown): unknown {
  try {
    return decode();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedException);
    expect((error as Error).message).toMatch(/^cursor is not valid/);
    return undefined;
  }
}

describe('keyset cursors', () => {
  it('round-trip the last id of a page for the same filter', () => {
    expect(decodeCursor(encodeCursor(42, 'pets', { status: 'sold' }), 'pets', { status: 'sold' })).toBe(42);
    expect(decodeCursor(encodeCursor(7, 'pets', {}), 'pets', { status: undefined })).toBe(7);
  });

  it('are URL-safe and opaque', () => {
    expect(encodeCursor(123456, 'pets', { status: 'pending' })).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('do not continue a listing with another filter', () => {
    const cursor = encodeCursor(42, 'pets', { status: 'sold' });
    expect(() => decodeCursor(cursor, 'pets', { status: 'pending' })).toThrow(ValidationFailedException);
    expect(() => decodeCursor(cursor, 'pets', {})).toThrow(ValidationFailedException);
  });

  it('do not continue another listing', () => {
    expect(() => decodeCursor(encodeCursor(42, 'pets', {}), 'orders', {})).toThrow(ValidationFailedException);
  });

  it.each([
    ['an edited payload', (c: string) => `${Buffer.from('[41,"pets?status=sold"]').toString('base64url')}.${c.split('.')[1]}`],
    ['an edited check', (c: string) => `${c.split('.')[0]}.${'A'.repeat(8)}`],
    ['a missing check', (c: string) => c.split('.')[0]],
    ['an extra part', (c: string) => `${c}.x`],
    ['garbage', () => '%%%'],
    ['an empty string', () => ''],
  ])('refuse %s', (_, tamper) => {
    expect(() => decodeCursor(tamper(encodeCursor(42, 'pets', { status: 'sold' })), 'pets', { status: 'sold' })).toThrow(
      /cursor is not valid/,
    );
  });

  it('refuse ids that are not positive safe integers, even with a valid check', () => {
    for (const afterId of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => decodeCursor(encodeCursor(afterId, 'pets', {}), 'pets', {})).toThrow(ValidationFailedException);
    }
  });

  describe('whatever a cursor that passes its check holds (anyone can make one)', () => {
    it('decode to an id from 1 to 2^53-1, the one encoded, or are refused with a 400', () => {
      fc.assert(
        fc.property(positions, (position) => {
          const decoded = refusal(() => decodeCursor(encodeCursor(position as number, 'pets', {}), 'pets', {}));
          if (decoded === undefined) return;
          expect(decoded).toBe(asSent(position));
          expect(Number.isSafeInteger(decoded) && (decoded as number) >= 1).toBe(true);
        }),
        { numRuns: 2000 },
      );
    });

    it('decode to a time a DATETIME and a Date hold (the years 1000 to 9999) and a row id, the ones encoded, or are refused', () => {
      fc.assert(
        fc.property(positions, (position) => {
          const decoded = refusal(() => decodeTimeCursor(encodeCursor(position as TimePosition, 'requests', {}), 'requests', {})) as
            TimePosition | undefined;
          if (decoded === undefined) return;
          expect(decoded).toEqual(asSent(position));
          const [time, rowId] = decoded;
          const year = new Date(time).getUTCFullYear();
          expect(Number.isInteger(time) && year >= 1000 && year <= 9999).toBe(true);
          expect(Number.isSafeInteger(rowId) && rowId >= 1).toBe(true);
        }),
        { numRuns: 2000 },
      );
    });

    it('round-trip every position a page can end on', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: EARLIEST, max: LATEST }), (id, time) => {
          expect(decodeCursor(encodeCursor(id, 'orders', { status: 'placed' }), 'orders', { status: 'placed' })).toBe(id);
          expect(decodeTimeCursor(encodeCursor([time, id], 'requests', { status: '4xx' }), 'requests', { status: '4xx' })).toEqual([
            time,
            id,
          ]);
        }),
      );
    });
  });

  it('refuse any text that is not a cursor with a 400, never another error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/)), (text) => {
        expect(refusal(() => decodeCursor(text, 'pets', {}))).toBeUndefined();
        expect(refusal(() => decodeTimeCursor(text, 'requests', {}))).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});
