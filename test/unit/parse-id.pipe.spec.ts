import { describe, expect, it } from '@jest/globals';
import { ValidationFailedException } from '../../src/errors/api-exception.js';
import { ParseIdPipe } from '../../src/http/parse-id.pipe.js';

describe('ParseIdPipe', () => {
  const pipe = new ParseIdPipe('petId');

  it.each([
    ['1', 1n],
    ['42', 42n],
    ['9007199254740993', 9007199254740993n],
    ['9223372036854775807', 9223372036854775807n],
  ])('reads %p as %p', (value, id) => {
    expect(pipe.transform(value)).toBe(id);
  });

  it.each(['0', '-1', '01', '1.0', '1e3', ' 1', 'abc', '', '9223372036854775808', '99999999999999999999'])(
    'rejects %p naming the parameter',
    (value) => {
      expect(() => pipe.transform(value)).toThrow(ValidationFailedException);
      expect(() => pipe.transform(value)).toThrow(/petId/);
    },
  );
});
