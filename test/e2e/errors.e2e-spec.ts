import { describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { AUTH, TEST_API_KEY, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

const VALID_PET = JSON.stringify({ name: 'Rex', categoryId: 1 });
/** The body limit (DECISIONS: 128 KiB from 1.5.1, the largest valid body and a little more). */
const BODY_LIMIT = 128 * 1024;
const OVERSIZED_PET = JSON.stringify({ name: 'Rex', categoryId: 1, padding: 'x'.repeat(BODY_LIMIT) });

describe.each(DATABASE_KINDS)('errors on %s', (kind) => {
  const ctx = useApp(kind);
  const postPet = (body: string, contentType?: string) => {
    const req = ctx.http().post('/v1/pets').set(AUTH);
    return contentType ? req.set('Content-Type', contentType).send(body) : req.send(body);
  };

  describe('body parsing', () => {
    it.each(['{"name":', '{name: "Rex"}', "{'name':'Rex'}", '{"name":"Rex",}', 'undefined'])(
      'answers MALFORMED_JSON for %p',
      async (body) => {
        expectError(await postPet(body, 'application/json'), 400, 'MALFORMED_JSON');
      },
    );

    it.each([
      ['without a Content-Type', undefined],
      ['as text/plain', 'text/plain'],
      ['as a form', 'application/x-www-form-urlencoded'],
      ['as application/xml', 'application/xml'],
    ])('answers UNSUPPORTED_MEDIA_TYPE for a body sent %s', async (_, contentType) => {
      const req = ctx.http().post('/v1/pets').set(AUTH);
      const response = contentType
        ? await req.set('Content-Type', contentType).send(VALID_PET)
        : await req
            .serialize((body: unknown) => body as string)
            .unset('Content-Type')
            .send(VALID_PET);
      expectError(response, 400, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('accepts application/json with a charset', async () => {
      expect((await postPet(VALID_PET, 'application/json; charset=utf-8')).status).toBe(201);
    });

    it('answers UNSUPPORTED_MEDIA_TYPE for a charset other than UTF-8', async () => {
      expectError(await postPet(VALID_PET, 'application/json; charset=latin-9'), 400, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('answers PAYLOAD_TOO_LARGE for a body over 128 KiB, naming the limit, and stores nothing', async () => {
      const before = (await ctx.http().get('/v1/pets?limit=100').set(AUTH)).body.length;
      const response = await postPet(OVERSIZED_PET, 'application/json');
      expectError(response, 413, 'PAYLOAD_TOO_LARGE');
      expect(response.body.message).toBe('The request body is larger than 128 KiB.');
      const justOver = JSON.stringify({ name: 'Rex', categoryId: 1, padding: '' }).replace('""', `"${'x'.repeat(BODY_LIMIT - 41)}"`);
      expect(Buffer.byteLength(justOver)).toBe(BODY_LIMIT + 1);
      expectError(await postPet(justOver, 'application/json'), 413, 'PAYLOAD_TOO_LARGE');
      expect((await ctx.http().get('/v1/pets?limit=100').set(AUTH)).body.length).toBe(before);
    });

    it('accepts a body of exactly 128 KiB (and then judges its fields)', async () => {
      const body = JSON.stringify({ name: 'Rex', categoryId: 1, padding: '' }).replace('""', `"${'x'.repeat(BODY_LIMIT - 42)}"`);
      expect(Buffer.byteLength(body)).toBe(BODY_LIMIT);
      const response = await postPet(body, 'application/json');
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\bpadding\b/);
    });

    it('answers a body of 128 KiB nested as deep as it can be with VALIDATION_FAILED', async () => {
      const response = await postPet(`${'['.repeat(BODY_LIMIT / 2)}${']'.repeat(BODY_LIMIT / 2)}`, 'application/json');
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/nested deeper than \d+ levels/);
    });

    describe('compressed bodies', () => {
      // serialize: as given, where supertest would turn a Buffer into JSON.
      const postEncoded = (body: Buffer | string, encoding: string) =>
        ctx
          .http()
          .post('/v1/pets')
          .set(AUTH)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .serialize((raw: unknown) => raw as string)
          .send(body);

      it('accepts a gzip-compressed body', async () => {
        const response = await postEncoded(gzipSync(JSON.stringify({ name: 'Zipped', categoryId: 2 })), 'gzip');
        expect(response.status).toBe(201);
        expect(response.body).toMatchObject({ name: 'Zipped', categoryId: 2 });
      });

      it('answers MALFORMED_JSON for a body that is not what its Content-Encoding says, and stores nothing', async () => {
        const response = await postEncoded(JSON.stringify({ name: 'Not zipped', categoryId: 2 }), 'gzip');
        expectError(response, 400, 'MALFORMED_JSON');
        expect(response.body.message).toMatch(/Content-Encoding/);
        const listed = await ctx.http().get('/v1/pets?limit=100').set(AUTH);
        expect(listed.body.map((pet: { name: string }) => pet.name)).not.toContain('Not zipped');
      });

      it('answers UNSUPPORTED_MEDIA_TYPE for a Content-Encoding it does not know', async () => {
        expectError(await postEncoded(VALID_PET, 'compress'), 400, 'UNSUPPORTED_MEDIA_TYPE');
      });

      it('answers PAYLOAD_TOO_LARGE for a small body that inflates past 128 KiB', async () => {
        const bomb = gzipSync(JSON.stringify({ name: 'Rex', categoryId: 1, padding: ' '.repeat(1024 * 1024) }));
        expect(bomb.length).toBeLessThan(16 * 1024);
        expectError(await postEncoded(bomb, 'gzip'), 413, 'PAYLOAD_TOO_LARGE');
      });
    });
  });

  describe('authentication', () => {
    it.each([
      ['GET', '/v1/pets'],
      ['POST', '/v1/pets'],
      ['GET', '/v1/pets/1'],
      ['GET', '/v1/store/orders'],
    ])('%s %s needs a key: API_KEY_MISSING with WWW-Authenticate', async (method, path) => {
      const response = await ctx.http()[method === 'GET' ? 'get' : 'post'](path);
      expectError(response, 401, 'API_KEY_MISSING');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="petstore"');
    });

    it('answers API_KEY_INVALID, with error="invalid_token", for an unknown key', async () => {
      const response = await ctx.http().get('/v1/pets').set('Authorization', 'Bearer not-a-key');
      expectError(response, 401, 'API_KEY_INVALID');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="petstore", error="invalid_token"');
    });

    it.each(['bearer', 'BEARER', 'BeArEr'])('matches the scheme word %p case-insensitively', async (scheme) => {
      expect((await ctx.http().get('/v1/pets').set('Authorization', `${scheme} ${TEST_API_KEY}`)).status).toBe(200);
    });

    it.each([['Basic dXNlcjpwYXNz'], ['Bearer'], ['Bearer    '], [TEST_API_KEY], ['']])(
      'treats Authorization %p as no bearer credential',
      async (authorization) => {
        expectError(await ctx.http().get('/v1/pets').set('Authorization', authorization), 401, 'API_KEY_MISSING');
      },
    );

    it('does not accept a key that differs only in case', async () => {
      const response = await ctx.http().get('/v1/pets').set('Authorization', `Bearer ${TEST_API_KEY.toUpperCase()}`);
      expectError(response, 401, 'API_KEY_INVALID');
    });
  });

  describe('authentication comes before everything else', () => {
    const noKey = () => ctx.http();
    const badKey = () => ctx.http();

    it('refuses malformed JSON without a key', async () => {
      const response = await noKey().post('/v1/pets').set('Content-Type', 'application/json').send('{"name":');
      expectError(response, 401, 'API_KEY_MISSING');
    });

    it('refuses an oversized body without a key', async () => {
      const response = await noKey().post('/v1/pets').set('Content-Type', 'application/json').send(OVERSIZED_PET);
      expectError(response, 401, 'API_KEY_MISSING');
    });

    it('answers 401 without waiting for the body: the body is not read before the key is checked', async () => {
      const { port } = ctx.app.getHttpServer().address() as AddressInfo;
      const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
        const req = httpRequest({
          port,
          method: 'POST',
          path: '/v1/pets',
          headers: { 'Content-Type': 'application/json', 'Content-Length': '4096' },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => {
            req.destroy();
            resolve({ status: res.statusCode, body });
          });
        });
        req.on('error', reject);
        // A fraction of the promised body, and then nothing: a parser that ran first would wait.
        req.write('{"name":"Rex",');
        setTimeout(() => {
          req.destroy();
          reject(new Error('no answer: the service is waiting for the body'));
        }, 3_000).unref();
      });
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'API_KEY_MISSING', status: 401 });
    });

    it('refuses a body of the wrong type without a key', async () => {
      expectError(await noKey().post('/v1/pets').set('Content-Type', 'text/plain').send('hi'), 401, 'API_KEY_MISSING');
    });

    it('refuses an invalid pet with an invalid key', async () => {
      const response = await badKey().post('/v1/pets').set('Authorization', 'Bearer wrong').send({ name: '' });
      expectError(response, 401, 'API_KEY_INVALID');
    });

    it('refuses an unknown route without a key', async () => {
      expectError(await noKey().get('/v1/nothing-here'), 401, 'API_KEY_MISSING');
      expectError(await noKey().get('/'), 401, 'API_KEY_MISSING');
    });

    it('refuses a wrong method without a key', async () => {
      expectError(await noKey().delete('/v1/pets'), 401, 'API_KEY_MISSING');
    });

    it('refuses a bad query or id without a key', async () => {
      expectError(await noKey().get('/v1/pets?limit=0'), 401, 'API_KEY_MISSING');
      expectError(await noKey().get('/v1/pets/abc'), 401, 'API_KEY_MISSING');
    });

    it('refuses a URL that does not decode without a key', async () => {
      expectError(await noKey().get('/v1/pets/%E0%A4%A'), 401, 'API_KEY_MISSING');
    });

    it('stores nothing from a refused request', async () => {
      const before = (await ctx.http().get('/v1/pets?limit=100').set(AUTH)).body.length;
      await noKey().post('/v1/pets').send({ name: 'Sneaky', categoryId: 1 });
      await badKey().post('/v1/pets').set('Authorization', 'Bearer wrong').send({ name: 'Sneaky', categoryId: 1 });
      expect((await ctx.http().get('/v1/pets?limit=100').set(AUTH)).body.length).toBe(before);
    });
  });

  describe('routing', () => {
    it('answers ROUTE_NOT_FOUND for an unknown path', async () => {
      expectError(await ctx.http().get('/v1/cats').set(AUTH), 404, 'ROUTE_NOT_FOUND');
      expectError(await ctx.http().get('/v2/pets').set(AUTH), 404, 'ROUTE_NOT_FOUND');
      expectError(await ctx.http().post('/v1/pets/1/photos').set(AUTH), 404, 'ROUTE_NOT_FOUND');
    });

    it.each([
      ['delete', '/v1/pets', 'GET, HEAD, POST'],
      ['put', '/v1/pets', 'GET, HEAD, POST'],
      ['put', '/v1/pets/1', 'DELETE, GET, HEAD, PATCH'],
      ['post', '/v1/pets/1', 'DELETE, GET, HEAD, PATCH'],
      ['delete', '/v1/store/orders/1', 'GET, HEAD, PATCH'],
      ['get', '/v1/store/orders/1/cancel', 'POST'],
      ['delete', '/v1/store/orders', 'GET, HEAD, POST'],
      ['post', '/v1/store/inventory', 'GET, HEAD'],
    ] as const)('answers %s %s with METHOD_NOT_ALLOWED and Allow: %s', async (method, path, allow) => {
      const response = await ctx.http()[method](path).set(AUTH);
      expectError(response, 405, 'METHOD_NOT_ALLOWED');
      expect(response.headers.allow).toBe(allow);
    });

    it('answers a URL that does not decode with VALIDATION_FAILED', async () => {
      expectError(await ctx.http().get('/v1/pets/%E0%A4%A').set(AUTH), 400, 'VALIDATION_FAILED');
    });
  });
});

describe.each(DATABASE_KINDS)('unexpected failures on %s', (kind) => {
  const ctx = useApp(kind);

  it('answers a database fault with INTERNAL_ERROR and discloses nothing of it', async () => {
    // A real fault, not a mock: the table the query needs is gone (those that refer to it first).
    for (const table of ['order_metadata', 'orders', 'pet_metadata', 'pets']) await ctx.app.get(DataSource).query(`DROP TABLE ${table}`);
    const response = await ctx.http().get('/v1/pets').set(AUTH);
    expectError(response, 500, 'INTERNAL_ERROR');
    expect(response.body.message).toBe('An unexpected error occurred.');
    expect(response.text).not.toMatch(/pets|SELECT|SQL|sqlite|mysql|stack|at /i);
  });
});
