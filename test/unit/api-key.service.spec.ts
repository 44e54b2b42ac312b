import { describe, expect, it } from '@jest/globals';
import { hashApiKey } from '../../src/auth/api-key-secret.js';
import { ApiKeyService } from '../../src/auth/api-key.service.js';
import type { ApiKeysRepository } from '../../src/auth/api-keys.repository.js';
import { loadAppConfig } from '../../src/config/app-config.js';
import { SYSTEM_CLOCK } from '../../src/config/clock.js';
import { SharedRedis } from '../../src/redis/shared-redis.js';

const ADDRESS = '203.0.113.7';
const BOOTSTRAP_KEY = 'bootstrap-key-for-the-unit-test';

/** The stored keys as authentication reads them, watched: each lookup counted, and how many ran at once. */
class WatchedKeys {
  private readonly rows = new Map<string, Awaited<ReturnType<ApiKeysRepository['findByHash']>>>();
  lookups = 0;
  mostInFlight = 0;
  private inFlight = 0;

  add(id: number, key: string): void {
    const keyHash = hashApiKey(key);
    this.rows.set(keyHash, { id, name: `key ${id}`, keyHash, scopes: 'pets:read', revokedAt: null, expiresAt: null, environment: 0 });
  }

  async findByHash(hash: string) {
    this.lookups++;
    this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
    try {
      // Slow enough that lookups run side by side unless something makes them wait.
      await new Promise((settle) => setTimeout(settle, 10));
      return this.rows.get(hash);
    } finally {
      this.inFlight--;
    }
  }

  async recordUse(): Promise<void> {}
}

function authentication(failuresPerMinute: number) {
  const config = loadAppConfig({ API_KEYS: BOOTSTRAP_KEY, AUTH_FAILURES_PER_MINUTE: String(failuresPerMinute) });
  const keys = new WatchedKeys();
  const service = new ApiKeyService(config, keys as unknown as ApiKeysRepository, new SharedRedis(config), SYSTEM_CLOCK);
  const authenticate = async (key: string, address = ADDRESS) => service.authenticate(`Bearer ${key}`, address);
  return { keys, authenticate };
}

describe('ApiKeyService, against a flood of made-up keys', () => {
  it('looks up the keys of an address over its failure limit one at a time, however many arrive at once, and answers 429', async () => {
    const { keys, authenticate } = authentication(5);
    for (let i = 0; i < 5; i++) await expect(authenticate(`guess-${i}`)).rejects.toMatchObject({ code: 'API_KEY_INVALID' });
    expect(keys.lookups).toBe(5);

    keys.mostInFlight = 0;
    const flood = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => authenticate(`guess-${5 + i}`)));
    for (const refused of flood) {
      expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'RATE_LIMITED', status: 429 } });
      const retryAfter = Number((refused as PromiseRejectedResult).reason.headers['Retry-After']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    expect(keys.lookups).toBe(25);
    expect(keys.mostInFlight).toBe(1);
  });

  it('looks keys up side by side for an address within its limit, and for another address meanwhile', async () => {
    const { keys, authenticate } = authentication(5);
    await Promise.allSettled(Array.from({ length: 5 }, (_, i) => authenticate(`guess-${i}`)));
    expect(keys.mostInFlight).toBeGreaterThan(1);

    keys.mostInFlight = 0;
    await Promise.allSettled([
      ...Array.from({ length: 5 }, (_, i) => authenticate(`guess-${5 + i}`)),
      ...Array.from({ length: 4 }, (_, i) => authenticate(`other-${i}`, '198.51.100.9')),
    ]);
    expect(keys.mostInFlight).toBeGreaterThan(1);
  });

  it('never refuses a valid key from an address over its limit: a bootstrap key, a stored one, one never checked before', async () => {
    const { keys, authenticate } = authentication(5);
    keys.add(1, 'stored-key-used-before');
    keys.add(2, 'stored-key-first-used-in-the-flood');
    expect(await authenticate('stored-key-used-before')).toMatchObject({ keyId: 'key-1' });
    for (let i = 0; i < 5; i++) await expect(authenticate(`guess-${i}`)).rejects.toMatchObject({ code: 'API_KEY_INVALID' });

    const flood = Promise.allSettled(Array.from({ length: 20 }, (_, i) => authenticate(`guess-${5 + i}`)));
    // Queued behind the flood's lookups, and still answered.
    expect(await authenticate('stored-key-first-used-in-the-flood')).toMatchObject({ keyId: 'key-2' });
    expect(await authenticate('stored-key-used-before')).toMatchObject({ keyId: 'key-1' });
    expect(await authenticate(BOOTSTRAP_KEY)).toMatchObject({ name: 'API_KEYS' });
    expect((await flood).map(({ status }) => status)).toEqual(Array(20).fill('rejected'));
  });
});
