import { describe, expect, it } from '@jest/globals';
import { validateSync } from 'class-validator';
import { IsName } from '../../src/validation/is-name.validator.js';

class Named {
  @IsName(1, 5)
  name: unknown;
}

function isValid(name: unknown): boolean {
  const subject = new Named();
  subject.name = name;
  return validateSync(subject).length === 0;
}

describe('IsName', () => {
  it.each([['a'], ['abcde'], ['🐶🐶🐶🐶🐶'], [' a '], ['名前']])('accepts %p', (name) => {
    expect(isValid(name)).toBe(true);
  });

  it('counts characters (code points), not UTF-16 units', () => {
    expect('🐶🐶🐶🐶🐶'.length).toBe(10);
    expect(isValid('🐶🐶🐶🐶🐶')).toBe(true);
    expect(isValid('🐶🐶🐶🐶🐶🐶')).toBe(false);
  });

  it.each([[''], ['   '], ['\t\n'], ['abcdef'], ['a\ud800'], ['\udc00'], [5], [null], [undefined], [['a']]])('rejects %p', (name) => {
    expect(isValid(name)).toBe(false);
  });
});
