import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { generateApiKey, hashApiKey } from '../../src/auth/api-key-secret.js';

describe('generateApiKey', () => {
  it('makes psk_ and 32 random bytes in base64url, with a display prefix and its SHA-256', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    expect(prefix).toBe(key.slice(0, 12));
    expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
  });

  it('never makes the same key twice in a thousand', () => {
    expect(new Set(Array.from({ length: 1000 }, () => generateApiKey().key)).size).toBe(1000);
  });
});

describe('hashApiKey', () => {
  it('is hex SHA-256 of the UTF-8 key', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
