import { describe, expect, it } from '@jest/globals';
import { redactUrl } from '../../src/logging/redact-url.js';

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
  ])('hides the credential in %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it.each(['/v1/pets', '/v1/pets?limit=5&status=sold&cursor=abc.def', '/v1/pets?monkey=1&tokens=2', '/v1/pets?%zz=1'])(
    'leaves %s as it is',
    (url) => {
      expect(redactUrl(url)).toBe(url);
    },
  );
});
