import { describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { rawExchange } from './support/raw-http.js';
import { AUTH, TEST_API_KEY, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

/** Location of a create, Link rel="next" of a listing and Link rel="successor-version" of getPet, all sent with `headers`. */
async function absoluteUrls(ctx: ReturnType<typeof useApp>, headers: Record<string, string>) {
  for (let i = 0; i < 2; i++)
    expect(
      (
        await ctx
          .http()
          .post('/v1/pets')
          .set(AUTH)
          .send({ name: `Url ${i}`, categoryId: 1 })
      ).status,
    ).toBe(201);
  const created = await ctx.http().post('/v1/pets').set(AUTH).set(headers).send({ name: 'Url', categoryId: 1 });
  const listed = await ctx.http().get('/v1/pets?limit=1').set(AUTH).set(headers);
  const got = await ctx.http().get(`/v1/pets/${created.body.id}`).set(AUTH).set(headers);
  return {
    id: created.body.id as number,
    location: created.headers.location,
    next: /<([^>]+)>; rel="next"/.exec(listed.headers.link)?.[1],
    successor: /<([^>]+)>; rel="successor-version"/.exec(got.headers.link)?.[1],
  };
}

const FORWARDED = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'shop.example:8443' };

describe.each(DATABASE_KINDS)('absolute URLs on %s', (kind) => {
  describe('with PUBLIC_BASE_URL', () => {
    const ctx = useApp(kind, { PUBLIC_BASE_URL: 'https://pets.example.com/api', TRUST_PROXY: 'loopback' });

    it('builds every absolute URL from it, whatever Host and X-Forwarded-* say', async () => {
      const urls = await absoluteUrls(ctx, { Host: 'attacker.example', ...FORWARDED });
      expect(urls.location).toBe(`https://pets.example.com/api/v1/pets/${urls.id}`);
      expect(urls.next).toMatch(/^https:\/\/pets\.example\.com\/api\/v1\/pets\?limit=1&cursor=[\w.-]+$/);
      expect(urls.successor).toBe('https://pets.example.com/api/v1/pets');
    });

    it('does not need a usable Host at all', async () => {
      const port = (ctx.app.getHttpServer().address() as AddressInfo).port;
      const response = await rawExchange(port, [
        `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: a b\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nConnection: close\r\n\r\n`,
      ]);
      expect(response.status).toBe(200);
      expect(response.headers.link).toMatch(/^<https:\/\/pets\.example\.com\/api\/v1\/pets\?limit=1&cursor=/);
    });
  });

  describe('without PUBLIC_BASE_URL or TRUST_PROXY', () => {
    const ctx = useApp(kind);

    it("builds them from the request's Host and scheme, ignoring X-Forwarded-* from an untrusted hop", async () => {
      const urls = await absoluteUrls(ctx, { Host: 'pets.internal:3000', ...FORWARDED });
      expect(urls.location).toBe(`http://pets.internal:3000/v1/pets/${urls.id}`);
      expect(urls.next).toMatch(/^http:\/\/pets\.internal:3000\/v1\/pets\?limit=1&cursor=/);
      expect(urls.successor).toBe('http://pets.internal:3000/v1/pets');
    });
  });

  describe('behind a proxy TRUST_PROXY trusts', () => {
    const ctx = useApp(kind, { TRUST_PROXY: 'loopback' });

    it('builds them from X-Forwarded-Proto and X-Forwarded-Host', async () => {
      const urls = await absoluteUrls(ctx, { Host: 'pets.internal:3000', ...FORWARDED });
      expect(urls.location).toBe(`https://shop.example:8443/v1/pets/${urls.id}`);
      expect(urls.next).toMatch(/^https:\/\/shop\.example:8443\/v1\/pets\?limit=1&cursor=/);
      expect(urls.successor).toBe('https://shop.example:8443/v1/pets');
    });
  });
});

describe.each(DATABASE_KINDS)('request targets on %s', (kind) => {
  /** One raw request with `requestLine` (and `body`), once the listing's next page is due. */
  async function send(ctx: ReturnType<typeof useApp>, requestLine: string, body = '') {
    for (let i = 0; i < 2; i++) {
      expect(
        (
          await ctx
            .http()
            .post('/v1/pets')
            .set(AUTH)
            .send({ name: `Target ${i}`, categoryId: 1 })
        ).status,
      ).toBe(201);
    }
    const port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    return rawExchange(port, [
      `${requestLine} HTTP/1.1\r\nHost: host.example\r\nAuthorization: Bearer ${TEST_API_KEY}\r\n` +
        (body ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : '') +
        `Connection: close\r\n\r\n${body}`,
    ]);
  }

  describe('without PUBLIC_BASE_URL', () => {
    const ctx = useApp(kind);

    it('answers an absolute-form target as its path, with URLs from its authority (RFC 9112 §3.2.2)', async () => {
      const listed = await send(ctx, 'GET http://target.example:8080/v1/pets?limit=1');
      expect(listed.status).toBe(200);
      expect(listed.headers.link).toMatch(/^<http:\/\/target\.example:8080\/v1\/pets\?limit=1&cursor=[\w.-]+>; rel="next"$/);

      // The scheme stays the connection's; the port is kept as sent, though it is https's default.
      const created = await send(ctx, 'POST https://target.example:443/v1/pets', '{"name":"Absolute","categoryId":1}');
      expect(created.status).toBe(201);
      expect(created.headers.location).toBe(`http://target.example:443/v1/pets/${JSON.parse(created.body).id}`);
    });

    it.each([
      ['GET *', 'The request target * is for OPTIONS only.'],
      [
        'GET ftp://target.example/v1/pets',
        'The request target must be a path such as /v1/pets, or an absolute http(s) URL without credentials.',
      ],
      [
        'GET http://user:secret@target.example/v1/pets',
        'The request target must be a path such as /v1/pets, or an absolute http(s) URL without credentials.',
      ],
    ])('answers %s with 400 MALFORMED_REQUEST', async (requestLine, message) => {
      const response = await send(ctx, requestLine);
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({
        code: 'MALFORMED_REQUEST',
        message,
        status: 400,
        requestId: response.headers['x-request-id'],
      });
    });

    it('answers OPTIONS * with the methods the API serves', async () => {
      const response = await send(ctx, 'OPTIONS *');
      expect(response.status).toBe(204);
      expect(response.headers.allow).toBe('DELETE, GET, HEAD, PATCH, POST');
      expect(response.body).toBe('');
    });
  });

  describe('with PUBLIC_BASE_URL', () => {
    const ctx = useApp(kind, { PUBLIC_BASE_URL: 'https://pets.example.com/api' });

    it('builds the URLs of an absolute-form request from it, never from the authority the client named', async () => {
      const listed = await send(ctx, 'GET http://evil.example/v1/pets?limit=1');
      expect(listed.status).toBe(200);
      expect(listed.headers.link).toMatch(/^<https:\/\/pets\.example\.com\/api\/v1\/pets\?limit=1&cursor=[\w.-]+>; rel="next"$/);
    });
  });
});
