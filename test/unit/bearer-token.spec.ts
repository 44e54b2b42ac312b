import { describe, expect, it } from '@jest/globals';
import { readBearerToken } from '../../src/auth/bearer-token.js';

describe('readBearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER   abc  ', 'abc'],
    ['Bearer\tpsk_x-y_z', 'psk_x-y_z'],
  ])('reads %p as %p', (header, token) => {
    expect(readBearerToken(header)).toBe(token);
  });

  it.each([[undefined], [''], ['Bearer'], ['Bearer   '], ['Basic abc'], ['Bearerabc'], ['abc']])(
    'finds no bearer credential in %p',
    (header) => {
      expect(readBearerToken(header)).toBeUndefined();
    },
  );
});
