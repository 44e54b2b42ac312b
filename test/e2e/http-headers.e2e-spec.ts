import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(DATABASE_KINDS)('HTTP headers on %s', (kind) => {
  const ctx = useApp(kind);

  describe('X-Request-Id', () => {
    const everyKindOfResponse = [
      ['a success', () => ctx.http().get('/v1/pets').set(AUTH)],
      ['a 401', () => ctx.http().get('/v1/pets')],
      ['a 400', () => ctx.http().get('/v1/pets?limit=0').set(AUTH)],
      ['a 404', () => ctx.http().get('/v1/nowhere').set(AUTH)],
      ['a 405', () => ctx.http().delete('/v1/pets').set(AUTH)],
      ['the document', () => ctx.http().get('/v1/openapi.json')],
      ['Swagger UI', () => ctx.http().get('/v1/docs')],
    ] as const;

    it.each(everyKindOfResponse)('is a new UUID on %s', async (_, send) => {
      expect((await send()).headers['x-request-id']).toMatch(UUID);
    });

    it.each(everyKindOfResponse)("echoes the client's own on %s", async (_, send) => {
      expect((await send().set('X-Request-Id', 'client-chosen_id.42')).headers['x-request-id']).toBe('client-chosen_id.42');
    });

    it.each([
      ['longer than 128 characters', 'x'.repeat(129)],
      ['with a space', 'two words'],
      ['empty', ''],
      // It would be kept, logged and echoed wherever the id is (1.5.1).
      ['shaped like an API key', `psk_${randomBytes(32).toString('base64url')}`],
      ['an API key with its prefix percent-encoded', `%70sk_${randomBytes(32).toString('base64url')}`],
    ])('replaces a client id that is %s', async (_, id) => {
      expect((await ctx.http().get('/v1/pets').set(AUTH).set('X-Request-Id', id)).headers['x-request-id']).toMatch(UUID);
    });

    it('accepts exactly 128 visible characters', async () => {
      const id = '~'.repeat(128);
      expect((await ctx.http().get('/v1/pets').set(AUTH).set('X-Request-Id', id)).headers['x-request-id']).toBe(id);
    });
  });

  describe('CORS: calls from servers only', () => {
    const accessControl = (headers: Record<string, string>) => Object.keys(headers).filter((name) => name.startsWith('access-control-'));

    it.each(['/v1/pets', '/v1/pets/1', '/v1/store/orders', '/v1/nowhere'])(
      "answers a browser's preflight for %s with 401 saying why, and grants no origin",
      async (path) => {
        const response = await ctx
          .http()
          .options(path)
          .set('Origin', 'https://shop.example')
          .set('Access-Control-Request-Method', 'POST')
          .set('Access-Control-Request-Headers', 'authorization, content-type');
        expectError(response, 401, 'API_KEY_MISSING');
        expect(response.body.message).toMatch(/^This API does not answer browsers \(no CORS\)/);
        expect(response.headers['www-authenticate']).toBe('Bearer realm="petstore"');
        expect(accessControl(response.headers)).toEqual([]);
      },
    );

    it('answers a call with an Origin as any other, without Access-Control-* headers', async () => {
      const response = await ctx.http().get('/v1/pets').set(AUTH).set('Origin', 'https://shop.example');
      expect(response.status).toBe(200);
      expect(accessControl(response.headers)).toEqual([]);
    });
  });

  it('sends helmet headers and no X-Powered-By, on successes and errors', async () => {
    for (const response of [await ctx.http().get('/v1/pets').set(AUTH), await ctx.http().get('/v1/pets')]) {
      expect(response.headers['x-powered-by']).toBeUndefined();
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['strict-transport-security']).toBeDefined();
    }
  });

  it('serves Swagger UI in a way its content security policy allows', async () => {
    const page = await ctx.http().get('/v1/docs/');
    const policy = page.headers['content-security-policy'];
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('upgrade-insecure-requests');
    // No inline script: every script is a file of the same origin, and each of them loads.
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    const assets = [...page.text.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map(([, url]) => url);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src=["']\.\//);
      expect(body.trim()).toBe('');
    }
    for (const asset of assets) {
      expect(asset).toMatch(/^\.\//);
      const response = await ctx.http().get(`/v1/docs/${asset.slice(2)}`);
      expect(response.status).toBe(200);
    }
  });

  describe('HEAD', () => {
    it.each(['/v1/pets', '/v1/pets?status=sold', '/v1/store/orders', '/v1/openapi.json'])('works where GET does: %s', async (path) => {
      const head = await ctx.http().head(path).set(AUTH);
      expect(head.status).toBe(200);
      expect(head.text ?? '').toBe('');
      expect(head.headers['content-type']).toMatch(/^application\/json/);
    });

    it('answers a pet with 200 and the deprecation headers', async () => {
      const pet = await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Head', categoryId: 1 });
      const head = await ctx.http().head(`/v1/pets/${pet.body.id}`).set(AUTH);
      expect(head.status).toBe(200);
      expect(head.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    });

    it('needs a key like GET', async () => {
      const head = await ctx.http().head('/v1/pets');
      expect(head.status).toBe(401);
      expect(head.headers['www-authenticate']).toBe('Bearer realm="petstore"');
    });
  });

  it('answers 201 with the Location of the created pet, which reads it back', async () => {
    const created = await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Located', categoryId: 1 });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.location);
    expect(location.href).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/v1/pets/${created.body.id}$`));
    expect((await ctx.http().get(location.pathname).set(AUTH)).body).toEqual(created.body);
  });

  describe('deprecated getPet', () => {
    it('sends Deprecation, Sunset and the successor Link', async () => {
      const pet = await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Old', categoryId: 1 });
      const response = await ctx.http().get(`/v1/pets/${pet.body.id}`).set(AUTH);
      expect(response.status).toBe(200);
      expect(response.headers.deprecation).toBe('@1795219200');
      expect(response.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(response.headers.link).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/v1\/pets>; rel="successor-version"$/);
    });

    it('sends them on its errors too', async () => {
      for (const path of ['/v1/pets/987654321', '/v1/pets/abc']) {
        const response = await ctx.http().get(path).set(AUTH);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.headers.deprecation).toBe('@1795219200');
        expect(response.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      }
    });

    it('is not sent by the operations that are not deprecated', async () => {
      const response = await ctx.http().get('/v1/pets').set(AUTH);
      expect(response.headers.deprecation).toBeUndefined();
      expect(response.headers.sunset).toBeUndefined();
    });
  });
});
