import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { redactUrl } from '../../src/logging/redact-url.js';

/** Shaped like one of our keys: `psk_` and 32 random bytes in base64url. */
const KEY = `psk_${randomBytes(32).toString('base64url')}`;

describe('redactUrl', () => {
  it.each([
    ['/v1/pets?api_key=s3cret', '/v1/pets?api_key=[redacted]'],
    ['/v1/pets?limit=5&access_token=s3cret&status=sold', '/v1/pets?limit=5&access_token=[redacted]&status=sold'],
    ['/v1/pets?API-KEY=s3cret', '/v1/pets?API-KEY=[redacted]'],
    [
      '/v1/pets?apikey=a&token=b&password=c&client_secret=d',
      '/v1/pets?apikey=[redacted]&token=[redacted]&password=[redacted]&client_secret=[redacted]',
    ],
    ['/v1/pets?api%5Fkey=s3cret', '/v1/pets?api%5Fkey=[redacted]'],
    ['/v1/pets?token', '/v1/pets?token=[redacted]'],
    [`/v1/pets?x=${KEY}`, '/v1/pets?x=psk_[redacted]'],
    [`/v1/pets/${KEY}?limit=5`, '/v1/pets/psk_[redacted]?limit=5'],
    [`/v1/pets?q=a${KEY.replace('_', '%5F')}&r=${KEY}`, '/v1/pets?q=apsk_[redacted]&r=psk_[redacted]'],
    [`/v1/pets?api_key=${KEY}`, '/v1/pets?api_key=[redacted]'],
  ])('hides the credential in %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it.each([
    '/v1/pets',
    '/v1/pets?limit=5&status=sold&cursor=abc.def',
    '/v1/pets?monkey=1&tokens=2',
    '/v1/pets?%zz=1',
    '/v1/pets?name=psk_short',
  ])('leaves %s as it is', (url) => {
    expect(redactUrl(url)).toBe(url);
  });
});
