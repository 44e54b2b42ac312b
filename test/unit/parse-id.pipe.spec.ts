import { describe, expect, it } from '@jest/globals';
import { ValidationFailedException } from '../../src/errors/api-exception.js';
import { ParseIdPipe } from '../../src/validation/parse-id.pipe.js';

describe('ParseIdPipe', () => {
  const pipe = new ParseIdPipe('petId');

  it.each([
    ['1', 1],
    ['42', 42],
    ['9007199254740991', 9007199254740991],
  ])('reads %p as %p', (value, id) => {
    expect(pipe.transform(value)).toBe(id);
  });

  it.each(['0', '-1', '01', '1.0', '1e3', ' 1', 'abc', '', '9007199254740992', '9223372036854775807', '99999999999999999999'])(
    'rejects %p naming the parameter',
    (value) => {
      expect(() => pipe.transform(value)).toThrow(ValidationFailedException);
      expect(() => pipe.transform(value)).toThrow(/petId/);
    },
  );
});
