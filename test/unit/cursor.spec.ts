import { describe, expect, it } from '@jest/globals';
import { ValidationFailedException } from '../../src/errors/api-exception.js';
import { decodeCursor, encodeCursor } from '../../src/pagination/cursor.js';

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
});
