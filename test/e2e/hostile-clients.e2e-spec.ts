import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { ApiKeyIssuer } from '../../src/auth/api-key-issuer.js';
import { rawExchange, type RawResponse, SlowHeaderFlood } from './support/raw-http.js';
import { AUTH, expectError, TEST_API_KEY, useApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS } from './support/test-database.js';
import { useServiceProcesses } from './support/use-service-processes.js';

const portOf = (ctx: ReturnType<typeof useApp>) => (ctx.app.getHttpServer().address() as AddressInfo).port;

/** An answer written in the Error shape, then the connection closed. */
function expectRawError(response: RawResponse, status: number, code: string): void {
  expect({ status: response.status, body: JSON.parse(response.body || 'null'), closed: response.closed }).toEqual({
    status,
    body: { code, message: expect.any(String), status, requestId: response.headers['x-request-id'] },
    closed: true,
  });
  expect(response.headers['content-type']).toMatch(/^application\/json/);
}

const GET_PETS = `GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_API_KEY}\r\n`;

describe.each(DATABASE_KINDS)('hostile clients on %s', (kind) => {
  describe('odd bodies', () => {
    const ctx = useApp(kind);
    const storedCount = async () => (await ctx.http().get('/v1/pets?limit=100').set(AUTH)).body.length;

    it.each([
      ['deep in a field', `{"name":"Deep","categoryId":${'['.repeat(1300)}${']'.repeat(1300)}}`],
      ['as the whole body', `${'['.repeat(1300)}${']'.repeat(1300)}`],
      ['in objects', `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`],
    ])('answers JSON nested 1,000+ levels %s with VALIDATION_FAILED, keyed or not', async (_, body) => {
      const before = await storedCount();
      for (const key of [undefined, 'deep-1']) {
        const post = ctx.http().post('/v1/pets').set(AUTH).type('application/json');
        const response = await (key ? post.set('Idempotency-Key', key) : post).send(body);
        expectError(response, 400, 'VALIDATION_FAILED');
        expect(response.body.message).toMatch(/nested deeper than \d+ levels/);
      }
      expect(await storedCount()).toBe(before);
    });

    it.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'])(
      'answers a body carrying %s with VALIDATION_FAILED naming it, and stores nothing',
      async (name) => {
        const before = await storedCount();
        const body = `{"name":"Proto","categoryId":1,${JSON.stringify(name)}:{"polluted":true}}`;
        const response = await ctx.http().post('/v1/pets').set(AUTH).type('application/json').send(body);
        expectError(response, 400, 'VALIDATION_FAILED');
        expect(response.body.message).toBe(`${name} is not allowed.`);
        const order = await ctx
          .http()
          .post('/v1/store/orders')
          .set(AUTH)
          .type('application/json')
          .send(`{"petId":1,"quantity":1,${JSON.stringify(name)}:1}`);
        expectError(order, 400, 'VALIDATION_FAILED');
        expect(order.body.message).toContain(`${name} is not allowed`);
        expect(await storedCount()).toBe(before);
      },
    );

    it.each([
      ['POST', '/v1/pets', '{"name":{"constructor":"x"},"categoryId":1}', 'name'],
      ['POST', '/v1/pets', '{"name":"Proto","categoryId":[{"constructor":"x"}]}', 'categoryId'],
      ['POST', '/v1/pets', '{"name":"Proto","categoryId":1,"metadata":{"a":{"constructor":{"prototype":1}}}}', 'metadata.a'],
      ['POST', '/v1/store/orders', '{"petId":1,"quantity":{"constructor":"x"}}', 'quantity'],
      ['POST', '/v1/webhook-endpoints', '{"url":"https://example.com/hook","events":[{"constructor":"x"}]}', 'events'],
      ['PATCH', '/v1/pets/1', '{"name":{"constructor":"x","toString":"y"}}', 'name'],
    ])(
      'answers %s %s with a member named constructor inside a field with VALIDATION_FAILED naming the field',
      async (method, path, body, field) => {
        const before = await storedCount();
        const sent = method === 'POST' ? ctx.http().post(path) : ctx.http().patch(path);
        const response = await sent.set(AUTH).type('application/json').send(body);
        expectError(response, 400, 'VALIDATION_FAILED');
        expect(response.body.message).toMatch(new RegExp(`^${field.replace('.', '\\.')} `));
        expect(await storedCount()).toBe(before);
      },
    );

    it('names a prototype-named key beside every other bad field', async () => {
      const response = await ctx
        .http()
        .post('/v1/pets')
        .set(AUTH)
        .type('application/json')
        .send('{"constructor":1,"categoryId":"x","no such field":"red"}');
      expectError(response, 400, 'VALIDATION_FAILED');
      for (const field of ['constructor', 'name', 'categoryId', 'no such field']) expect(response.body.message).toContain(field);
    });
  });

  describe('a Host that cannot form a URL', () => {
    const ctx = useApp(kind);

    it.each(['a b', '[', 'a:99999', 'x@y'])(
      'answers Host %p with VALIDATION_FAILED where an absolute URL is due, and creates nothing',
      async (host) => {
        for (let i = 0; i < 3; i++)
          expect(
            (
              await ctx
                .http()
                .post('/v1/pets')
                .set(AUTH)
                .send({ name: `Host ${i}`, categoryId: 1 })
            ).status,
          ).toBe(201);
        const raw = (head: string, body = '') =>
          rawExchange(portOf(ctx), [`${head}Host: ${host}\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nConnection: close\r\n\r\n${body}`]);
        const listing = await raw('GET /v1/pets?limit=1 HTTP/1.1\r\n');
        expect({ status: listing.status, code: JSON.parse(listing.body).code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
        const before = (await ctx.http().get('/v1/pets?limit=100').set(AUTH)).body.length;
        const body = '{"name":"Hostless","categoryId":1}';
        const created = await raw(`POST /v1/pets HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n`, body);
        expect({ status: created.status, code: JSON.parse(created.body).code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
        expect((await ctx.http().get('/v1/pets?limit=100').set(AUTH)).body.length).toBe(before);
      },
    );
  });

  describe('requests the HTTP parser refuses', () => {
    const ctx = useApp(kind);

    it.each([
      ['a 40 KB header', `${GET_PETS}X-Big: ${'a'.repeat(40_000)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
      ['a 100 KB URL', `GET /v1/pets?q=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
      [
        'a Content-Length that is not a number',
        `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n{}`,
        400,
        'MALFORMED_REQUEST',
      ],
      [
        'two Content-Lengths that disagree',
        `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
        400,
        'MALFORMED_REQUEST',
      ],
      [
        'Content-Length beside chunked',
        `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}`,
        400,
        'MALFORMED_REQUEST',
      ],
      ['a header with a bare CR', `GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nX-Odd: a\rb\r\n\r\n`, 400, 'MALFORMED_REQUEST'],
      ['a method of symbols', `G@T /v1/pets HTTP/1.1\r\nHost: localhost\r\n\r\n`, 400, 'MALFORMED_REQUEST'],
      ['a header name with a space', `GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nBad Name: x\r\n\r\n`, 400, 'MALFORMED_REQUEST'],
      [
        'a broken chunk size',
        `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
        400,
        'MALFORMED_REQUEST',
      ],
      [
        'an HTTP/1.1 request without Host',
        `GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer ${TEST_API_KEY}\r\n\r\n`,
        400,
        'MALFORMED_REQUEST',
      ],
      ['an Expect other than 100-continue', `${GET_PETS}Expect: bogus\r\n\r\n`, 417, 'EXPECTATION_FAILED'],
      ['CONNECT, as to a proxy', `CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n`, 405, 'METHOD_NOT_ALLOWED'],
    ])('answers %s in the Error shape and closes the connection', async (_, request, status, code) => {
      const response = await rawExchange(portOf(ctx), [request]);
      expectRawError(response, status, code);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('says which expectation it cannot meet, and which methods it serves instead of CONNECT', async () => {
      const expectation = await rawExchange(portOf(ctx), [`${GET_PETS}Expect: bogus\r\n\r\n`]);
      expect(JSON.parse(expectation.body).message).toBe('The service cannot meet the expectation "bogus"; it knows only 100-continue.');
      const connect = await rawExchange(portOf(ctx), [`CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n`]);
      expect(connect.headers.allow).toBe('DELETE, GET, HEAD, PATCH, POST');
    });
  });

  describe('slow and idle connections', () => {
    const ctx = useApp(kind, {
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_TIMEOUT_MS: '2000',
      KEEP_ALIVE_TIMEOUT_MS: '1000',
      MAX_CONNECTIONS: '8',
    });

    it('answers a connection that sends nothing with REQUEST_TIMEOUT once HEADERS_TIMEOUT_MS has passed, and closes it', async () => {
      const response = await rawExchange(portOf(ctx), [], { waitMs: 5_000 });
      expectRawError(response, 408, 'REQUEST_TIMEOUT');
      expect(response.ms).toBeGreaterThanOrEqual(900);
      expect(response.ms).toBeLessThan(2_500);
    });

    it('closes a connection whose headers trickle in past HEADERS_TIMEOUT_MS', async () => {
      const trickle = ['GET /v1/pets HTTP/1.1\r\n', ...Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: x\r\n`)];
      const response = await rawExchange(portOf(ctx), trickle, { gapMs: 200, waitMs: 5_000 });
      expectRawError(response, 408, 'REQUEST_TIMEOUT');
      expect(response.ms).toBeLessThan(2_500);
    });

    it('closes a request whose body trickles in past REQUEST_TIMEOUT_MS', async () => {
      const headers = `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
      const response = await rawExchange(portOf(ctx), [headers, ...Array.from({ length: 40 }, () => ' ')], { gapMs: 200, waitMs: 6_000 });
      expectRawError(response, 408, 'REQUEST_TIMEOUT');
      expect(response.ms).toBeLessThan(3_500);
    });

    it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
      const response = await rawExchange(portOf(ctx), [`${GET_PETS}\r\n`], { waitMs: 5_000 });
      expect(response.status).toBe(200);
      expect(response.closed).toBe(true);
      expect(response.ms).toBeLessThan(2_500);
    });

    it('answers a request refused before its body was read, then closes the connection without waiting for the body', async () => {
      const headers = 'POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{';
      const response = await rawExchange(portOf(ctx), [headers, ' ', ' ', ' '], { gapMs: 300, waitMs: 5_000 });
      expect(response.status).toBe(401);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'API_KEY_MISSING', status: 401 });
      expect(response.headers.connection).toBe('close');
      expect(response.closed).toBe(true);
      expect(response.ms).toBeLessThan(800);
    });

    it('at MAX_CONNECTIONS, closes the oldest connection still waiting for its headers to serve a new one', async () => {
      const started = Date.now();
      const held = Array.from({ length: 8 }, () => rawExchange(portOf(ctx), ['GET /v1/pets HTTP/1.1\r\n'], { waitMs: 5_000 }));
      await new Promise((settle) => setTimeout(settle, 200));
      const served = await rawExchange(portOf(ctx), [`${GET_PETS}Connection: close\r\n\r\n`], { waitMs: 2_000 });
      expect(served.status).toBe(200);
      const [oldest] = await Promise.all(held);
      // Closed to make room, without an answer, long before its headers' time-out.
      expect({ status: oldest.status, closed: oldest.closed }).toEqual({ status: undefined, closed: true });
      expect(oldest.ms).toBeLessThan(Date.now() - started - 500);
    });
  });

  describe('slow-header floods', () => {
    const ctx = useApp(kind, { MAX_CONNECTIONS: '40', MAX_CONNECTIONS_PER_ADDRESS: '20', RATE_LIMIT_PER_MINUTE: '0' });

    /** Another client's 40 GETs, one connection each, one after another: how many were answered 200 within 2 s. */
    async function answeredOf40(): Promise<number> {
      let answered = 0;
      for (let i = 0; i < 40; i++) {
        const response = await rawExchange(portOf(ctx), [`${GET_PETS}Connection: close\r\n\r\n`], { waitMs: 2_000, from: '127.0.0.2' });
        if (response.status === 200) answered++;
      }
      return answered;
    }

    it.each([
      ['one address', 60, ['127.0.0.3']],
      ['100 addresses', 100, Array.from({ length: 100 }, (_, i) => `127.0.1.${i + 1}`)],
    ])(
      'keeps another client answered under %s holding slow connections past MAX_CONNECTIONS',
      async (_, connections, addresses) => {
        const flood = new SlowHeaderFlood(portOf(ctx), connections, addresses);
        try {
          await new Promise((settle) => setTimeout(settle, 500));
          expect(await answeredOf40()).toBeGreaterThanOrEqual(38);
        } finally {
          flood.stop();
        }
      },
      120_000,
    );
  });

  describe('half-closed connections', () => {
    const ctx = useApp(kind);

    it.each([
      ['HTTP/1.1', 'HTTP/1.1', ''],
      ['HTTP/1.1 keep-alive', 'HTTP/1.1', 'Connection: keep-alive\r\n'],
      ['HTTP/1.0', 'HTTP/1.0', ''],
    ])('answers a whole %s create sent before the client half-closed, and stores it once', async (_, version, extra) => {
      const name = `Half-closed ${randomBytes(4).toString('hex')}`;
      const body = JSON.stringify({ name, categoryId: 1 });
      const head =
        `POST /v1/pets ${version}\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_API_KEY}\r\n${extra}` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
      const response = await rawExchange(portOf(ctx), [head + body], { halfClose: true });
      expect({ status: response.status, closed: response.closed }).toEqual({ status: 201, closed: true });
      expect(JSON.parse(response.body)).toMatchObject({ name, categoryId: 1 });
      const stored = (await ctx.http().get('/v1/pets?limit=100').set(AUTH)).body.filter((pet: { name: string }) => pet.name === name);
      expect(stored).toHaveLength(1);
    });
  });

  describe('failed authentications from one address', () => {
    const ctx = useApp(kind, { AUTH_FAILURES_PER_MINUTE: '5' });

    // That the flood's lookups run one at a time, holding one database connection, no response shows: test/unit/api-key.service.spec.ts.
    it('answers 429 RATE_LIMITED with Retry-After past the limit, and never refuses a valid key', async () => {
      const issuer = ctx.app.get(ApiKeyIssuer);
      const { key: storedKey } = await issuer.create('used before the flood');
      expect((await ctx.http().get('/v1/pets').set('Authorization', `Bearer ${storedKey}`)).status).toBe(200);
      const { key: newKey } = await issuer.create('first used during the flood');

      for (let i = 0; i < 5; i++) {
        expectError(await ctx.http().get('/v1/pets').set('Authorization', `Bearer guess-${i}`), 401, 'API_KEY_INVALID');
      }
      const flood = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          ctx
            .http()
            .get('/v1/pets')
            .set('Authorization', `Bearer guess-${5 + i}`),
        ),
      );
      for (const refused of flood) {
        expectError(refused, 429, 'RATE_LIMITED');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      }
      expectError(await ctx.http().get('/v1/pets'), 429, 'RATE_LIMITED');
      expectError(await ctx.http().post('/v1/nowhere').send({}), 429, 'RATE_LIMITED');

      expect((await ctx.http().get('/v1/pets').set(AUTH)).status).toBe(200);
      expect((await ctx.http().get('/v1/pets').set('Authorization', `Bearer ${storedKey}`)).status).toBe(200);
      // A valid key this instance has never checked, from the same address (a client behind the same NAT or proxy).
      expect((await ctx.http().get('/v1/pets').set('Authorization', `Bearer ${newKey}`)).status).toBe(200);
    });
  });

  describe('logs', () => {
    const processes = useServiceProcesses();

    /** A key sent where no key belongs, under a name no list has. */
    const KEY_SHAPED = `psk_${randomBytes(32).toString('base64url')}`;

    it('never carry credential-like query parameters, keys anywhere in the URL, nor SQL parameter values', async () => {
      const database = await createTestDatabase(kind);
      try {
        const service = await processes.spawn({ DATABASE_URL: database.url, API_KEYS: TEST_API_KEY, LOG_LEVEL: 'debug' });
        const base = await service.listening();
        for (const query of [
          'api_key=qs-secret-1',
          'access_token=qs-secret-2&limit=5',
          'limit=5&Token=qs-secret-3',
          'API-KEY=qs-secret-4',
          `x=${KEY_SHAPED}`,
        ]) {
          expect((await fetch(`${base}/v1/pets?${query}`)).status).toBe(401);
        }
        expect((await fetch(`${base}/v1/pets/${KEY_SHAPED}`)).status).toBe(401);
        const created = await fetch(`${base}/v1/pets`, {
          method: 'POST',
          headers: { ...AUTH, 'Content-Type': 'application/json', 'Idempotency-Key': 'idem-secret-5' },
          body: JSON.stringify({ name: 'name-secret-6', categoryId: 1 }),
        });
        expect(created.status).toBe(201);
        await service.waitForOutput(/POST \/v1\/pets 201/);
        const output = service.stdout + service.stderr;
        expect(output).toContain('api_key=[redacted]');
        // TypeORM's statements are logged through the service's logger, as JSON at debug...
        expect(output).toMatch(/"context":"TypeORM".*"sql":"INSERT INTO/);
        // ...as SQL text alone.
        expect(output).toContain('/v1/pets/psk_[redacted]');
        for (const secret of ['qs-secret', 'idem-secret-5', 'name-secret-6', KEY_SHAPED.slice(4)]) expect(output).not.toContain(secret);
      } finally {
        await database.drop();
      }
    });
  });
});
