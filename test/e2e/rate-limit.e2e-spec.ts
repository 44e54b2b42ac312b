import { describe, expect, it } from '@jest/globals';
import { AUTH, expectError, TEST_API_KEY, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

const OTHER_KEY = 'rate-limit-other-key';

describe.each(DATABASE_KINDS)('rate limit per API key on %s', (kind) => {
  const ctx = useApp(kind, { RATE_LIMIT_PER_MINUTE: '3', API_KEYS: `${TEST_API_KEY},${OTHER_KEY}` });

  it('counts down in RateLimit headers, then answers RATE_LIMITED with Retry-After', async () => {
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const response = await ctx.http().get('/v1/pets').set(AUTH);
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-policy']).toBe('"per-key";q=3;w=60');
      remaining.push(/^"per-key";r=(\d+);t=(\d+)$/.exec(response.headers.ratelimit)![1]);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const refused = await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Too many', categoryId: 1 });
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers.ratelimit).toMatch(/^"per-key";r=0;t=\d+$/);
  });

  it('counts each key on its own', async () => {
    const other = await ctx
      .http()
      .get('/v1/pets')
      .set({ Authorization: `Bearer ${OTHER_KEY}` });
    expect(other.status).toBe(200);
    expect(other.headers.ratelimit).toMatch(/^"per-key";r=2;t=\d+$/);
  });

  it('does not count requests refused for their key, and does not limit the documents', async () => {
    for (let i = 0; i < 5; i++) expectError(await ctx.http().get('/v1/pets'), 401, 'API_KEY_MISSING');
    for (let i = 0; i < 5; i++) expect((await ctx.http().get('/v1/openapi.json')).status).toBe(200);
  });
});

describe('rate limit switched off', () => {
  const ctx = useApp('sqlite', { RATE_LIMIT_PER_MINUTE: '0' });

  it('limits nothing and sends no RateLimit headers', async () => {
    for (let i = 0; i < 10; i++) {
      const response = await ctx.http().get('/v1/pets').set(AUTH);
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-policy']).toBeUndefined();
      expect(response.headers.ratelimit).toBeUndefined();
    }
  });
});
