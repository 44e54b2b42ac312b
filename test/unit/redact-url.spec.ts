import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { generateApiKey } from '../../src/auth/api-key-secret.js';
import { containsKey, redactKeys, redactUrl, redactUrlKeeping } from '../../src/logging/redact-url.js';

/** Shaped like one of our keys: `psk_` and 32 random bytes in base64url. */
const KEY = `psk_${randomBytes(32).toString('base64url')}`;
/** Every character percent-encoded, as a client may send it. */
const encoded = (text: string) => [...text].map((character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`).join('');

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
    // 1.5.1: names of credentials the list missed, a name behind another's value, a key's prefix percent-encoded.
    [
      '/v1/pets?api_key[]=a&x-api-key=b&private_key=c&jwt=d&X-Amz-Signature=e&passphrase=f&webhook_secret=g&credentials=h',
      '/v1/pets?api_key[]=[redacted]&x-api-key=[redacted]&private_key=[redacted]&jwt=[redacted]&X-Amz-Signature=[redacted]' +
        '&passphrase=[redacted]&webhook_secret=[redacted]&credentials=[redacted]',
    ],
    ['/v1/pets?a=1;api_key=s3cret&limit=5', '/v1/pets?a=[redacted]&limit=5'],
    [`/v1/pets/%70sk_${KEY.slice(4)}`, '/v1/pets/psk_[redacted]'],
    [`/v1/pets/${encoded('psk_')}${KEY.slice(4)}`, '/v1/pets/psk_[redacted]'],
    [`/v1/pets/${encoded(KEY)}/x`, '/v1/pets/psk_[redacted]/x'],
    [`/v1/pets?x=psk_test_${KEY.slice(4)}`, '/v1/pets?x=psk_[redacted]'],
  ])('hides the credential in %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it.each([
    '/v1/pets',
    '/v1/pets?limit=5&status=sold&cursor=abc.def',
    '/v1/pets?monkey=1&tokens=2',
    '/v1/pets?%zz=1',
    '/v1/pets?name=psk_short',
    '/v1/pets?a=1&&b=2',
  ])('leaves %s as it is', (url) => {
    expect(redactUrl(url)).toBe(url);
  });
});

describe('redactUrlKeeping', () => {
  const listPets = (name: string) => ['limit', 'status', 'cursor'].includes(name) || /^metadata\[[^\]]*\]$/.test(name);

  it.each([
    ['/v1/pets?limit=5&status=sold&metadata[erp_id]=A-17', '/v1/pets?limit=5&status=sold&metadata[erp_id]=A-17'],
    ['/v1/pets?%6Cimit=5&_=1700000000', '/v1/pets?%6Cimit=5&_=[redacted]'],
    ['/v1/pets?limit=5;api_key=s3cret', '/v1/pets?limit=[redacted]'],
    ['/v1/pets?limit[]=5&debug&&status=sold', '/v1/pets?limit[]=[redacted]&[redacted]&&status=sold'],
    [`/v1/pets?status=${KEY}`, '/v1/pets?status=psk_[redacted]'],
    [`/v1/pets?${KEY}=1`, '/v1/pets?psk_[redacted]=[redacted]'],
  ])('keeps only the operation’s own query values in %s', (url, kept) => {
    expect(redactUrlKeeping(url, listPets)).toBe(kept);
  });
});

describe('text shaped like a key', () => {
  it('is every key the service makes, and a sandbox key, in any text', () => {
    for (let i = 0; i < 100; i++) {
      const { key } = generateApiKey();
      expect(containsKey(`a ${key} b`)).toBe(true);
      expect(redactKeys(`Bearer ${key}, psk_test_${key.slice(4)}.`)).toBe('Bearer psk_[redacted], psk_[redacted].');
    }
    expect(redactKeys(null)).toBeNull();
    expect(containsKey('psk_' + 'a'.repeat(42))).toBe(false);
    expect(containsKey('4f1c2d9e-0b7a-4c55-9e1f-3a2b6c8d0e17')).toBe(false);
  });
});
