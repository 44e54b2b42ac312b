import { describe, expect, it } from '@jest/globals';
import { nestsDeeperThan } from '../../src/http/json-body.js';

describe('nestsDeeperThan', () => {
  it.each([
    [null, 0],
    ['text', 0],
    [{}, 1],
    [{ name: 'Rex', tags: ['a'] }, 2],
    [[[[1]]], 3],
    [{ a: { b: { c: {} } } }, 4],
  ])('counts %j as %i deep', (value, depth) => {
    expect(nestsDeeperThan(value, depth)).toBe(false);
    if (depth > 0) expect(nestsDeeperThan(value, depth - 1)).toBe(true);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(nestsDeeperThan(deep, 32)).toBe(true);
  });
});
