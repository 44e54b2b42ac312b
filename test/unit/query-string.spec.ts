import { describe, expect, it } from '@jest/globals';
import { parse } from 'node:querystring';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { ValidationFailedException } from '../../src/errors/api-exception.js';
import { MAX_QUERY_PARAMETERS, parseQueryString, refuseUnreadQuery } from '../../src/validation/query-string.js';

/** Whether the service refuses the query for what its parser could not take. */
const refused = (text: string) => {
  try {
    refuseUnreadQuery(parseQueryString(text));
    return false;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedException);
    return true;
  }
};

describe('query strings', () => {
  it('parse as Express\'s "simple" parser does (node:querystring)', () => {
    for (const text of ['', 'a=1&a=2&b', 'status[]=sold&metadata[k]=v', 'x=%5B1%5D&_=123&a+b=c+d', '&&=x&'])
      expect(parseQueryString(text)).toEqual(parse(text));
    expect(parseQueryString(undefined)).toEqual({});
  });

  // node:querystring stops at its 1,000th part without a word, empty parts counted: the mark must
  // follow exactly what it leaves out, so that no query it reads whole is refused (no brackets here:
  // their own rule is below).
  it('are refused exactly when node:querystring leaves a parameter unread', () => {
    const part = fc.oneof(fc.constant(''), fc.constantFrom('a=1', 'status=sold', '=', 'b', 'a=2'), fc.stringMatching(/^[a-z=%+&]{0,3}$/));
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_QUERY_PARAMETERS - 3, max: MAX_QUERY_PARAMETERS + 3 }),
        fc.array(part, { maxLength: 4 }),
        part,
        (count, tail, filler) => {
          const text = [...Array.from({ length: count }, () => filler), ...tail].join('&');
          const whole = isDeepStrictEqual(parse(text), parse(text, '&', '=', { maxKeys: 0 }));
          expect(refused(text)).toBe(!whole);
        },
      ),
      { numRuns: 500 },
    );
  });

  it.each(['metadata[k', 'status[', 'status]', 'a]', '[a]', 'a[b]c', 'a[b][', ']'])(
    'refuse %s, a name whose brackets do not pair up',
    (name) => {
      expect(refused(`${encodeURIComponent(name)}=1`)).toBe(true);
    },
  );

  it.each(['_', 'a', 'status[]', 'metadata[k]', 'a[b][c]', 'a[]', ''])('take %s, a name without brackets or with paired ones', (name) => {
    expect(refused(`${encodeURIComponent(name)}=[1]`)).toBe(false);
  });
});
