import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { rawExchange } from './support/raw-http.js';
import { TEST_API_KEY, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

/** mulberry32: a small seeded generator, so that a failing request can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 20261122;
const REQUESTS = 400;

const VALUES = [
  '',
  ' ',
  '%',
  '%zz',
  '%00',
  'é',
  '😀',
  '١',
  '-1',
  '0',
  '1',
  '1e3',
  '1.5',
  '0x10',
  '+5',
  ' 5',
  '9007199254740993',
  '99999999999999999999999',
  'null',
  'true',
  '[]',
  '{}',
  'a'.repeat(300),
  '../',
  '%2e%2e',
  'available',
  'sold',
  'x;y',
  '\\',
  '"',
  "'",
  '<b>',
];

/** One request built from the generator: method, path, headers and body, most of them wrong somehow. */
function randomRequest(random: () => number) {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
  const value = () => pick(VALUES);
  if (random() < 0.1) {
    // Some good creates among the bad, so that what is stored can be checked against what was acknowledged.
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Authorization: `Bearer ${TEST_API_KEY}` };
    if (random() < 0.5) headers['Idempotency-Key'] = pick(['k', 'retry-1', 'retry-2']);
    return { method: 'POST', path: '/v1/pets', headers, body: JSON.stringify({ name: 'Robust', categoryId: 1 }) };
  }
  const path = pick([
    () => '/v1/pets',
    () => `/v1/pets/${encodeURIComponent(value())}`,
    () => `/v1/pets/${value()}`,
    () => `/v1/pets?limit=${encodeURIComponent(value())}&status=${encodeURIComponent(value())}`,
    () => `/v1/pets?cursor=${encodeURIComponent(value())}`,
    () => `/v1/pets?limit=${value()}&limit=5`,
    () => '/v1/store/orders',
    () => `/v1/store/orders/${encodeURIComponent(value())}`,
    () => `/v1/store/orders?status=${encodeURIComponent(value())}&cursor=${encodeURIComponent(value())}`,
    () => '/v1/store/inventory',
    () => `/v1/${encodeURIComponent(value())}`,
    () => '/V1/PETS',
    () => '/v1//pets',
  ])();
  const method = pick(['GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);
  const json = pick([
    () => '',
    () => '{',
    () => 'null',
    () => '[]',
    () => '"x"',
    () => '{}',
    () => JSON.stringify({ name: value(), categoryId: value() }),
    () => JSON.stringify({ name: 'Robust', categoryId: 1, status: value() }),
    () => JSON.stringify({ name: 'Robust', categoryId: Number.MAX_SAFE_INTEGER + 2 }),
    () => JSON.stringify({ name: 'Robust', categoryId: 1, id: 5 }),
    () => JSON.stringify({ name: { nested: true }, categoryId: [1] }),
    () => '{"__proto__":{"polluted":1},"name":"Robust","categoryId":1}',
    () =>
      `{"name":"Robust","categoryId":1,"${pick(['constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'])}":${pick(['1', '{}', 'null'])}}`,
    () => `{"name":${'['.repeat(1 + Math.floor(random() * 3000))}"x"${']'.repeat(3000)}}`,
    () => `${'{"a":'.repeat(1 + Math.floor(random() * 2000))}1${'}'.repeat(2000)}`,
    () => JSON.stringify({ petId: value(), quantity: value(), shipDate: value() }),
    () => JSON.stringify({ petId: 1, quantity: 1, shipDate: '2026-02-30T00:00:00Z' }),
    () => 'x'.repeat(20_000),
  ])();
  const encoding = pick([undefined, undefined, undefined, 'gzip', 'identity', 'compress']);
  const body = method === 'GET' || method === 'HEAD' ? undefined : encoding === 'gzip' && random() < 0.5 ? gzipSync(json) : json;
  const headers: Record<string, string> = {};
  const contentType = pick([
    undefined,
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=',
    'text/plain',
    'application/json; charset=latin-9',
  ]);
  if (contentType) headers['Content-Type'] = contentType;
  if (encoding && body !== undefined) headers['Content-Encoding'] = encoding;
  const authorization = pick([
    `Bearer ${TEST_API_KEY}`,
    `Bearer ${TEST_API_KEY}`,
    `bearer ${TEST_API_KEY}`,
    undefined,
    'Bearer',
    'Basic abc',
    `Bearer ${'x'.repeat(3000)}`,
  ]);
  if (authorization) headers.Authorization = authorization;
  if (random() < 0.15) headers['Idempotency-Key'] = pick(['k', ' ', 'a'.repeat(300), 'retry-1', '"quoted"']);
  return { method, path, headers, body };
}

const RAW_REQUESTS = 200;

/** Bytes for Node's HTTP parser, built from the generator: a sound request with a few things broken. */
function randomRawRequest(random: () => number): string {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
  const sometimes = <T>(sound: T, odd: readonly T[]): T => (random() < 0.25 ? pick(odd) : sound);
  const post = random() < 0.5;
  const body = post
    ? pick(['{}', '{"name":"Raw","categoryId":1}', '{"name":', `${'['.repeat(2000)}${']'.repeat(2000)}`, '{"constructor":1}'])
    : '';
  const method = sometimes(post ? 'POST' : 'GET', ['G@T', 'PUT', 'get', '', 'HEAD', 'OPTIONS', 'CONNECT']);
  // Every form of request target Node accepts: origin, absolute (with a next page due), asterisk, authority.
  const target = sometimes('/v1/pets', [
    '/v1/pets?limit=1',
    `/v1/pets?q=${'a'.repeat(20_000)}`,
    '/%',
    '*',
    'http://x/v1/pets',
    'http://x/v1/pets?limit=1',
    'HTTPS://x:443/v1/pets/1',
    'ftp://x/v1/pets',
    'http://u:p@x/v1/pets?limit=1',
    'http://x',
    'localhost:443',
    '/v1/pets\x00',
  ]);
  const version = sometimes('HTTP/1.1', ['HTTP/1.0', 'HTTP/9.9', 'HTTP/1.1 extra', '']);
  const length = sometimes(`Content-Length: ${Buffer.byteLength(body)}`, [
    'Content-Length: abc',
    'Content-Length: -1',
    'Content-Length: 99999999999999999999',
    `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Length: 7`,
    `Content-Length: ${Buffer.byteLength(body)}\r\nTransfer-Encoding: chunked`,
    'Transfer-Encoding: chunked',
    `Content-Length: ${Buffer.byteLength(body) + 5}`,
  ]);
  const headers = [
    sometimes('Host: localhost', ['', 'Host: [', 'Host: a b']),
    sometimes(`Authorization: Bearer ${TEST_API_KEY}`, ['', 'Authorization: Bearer', `Authorization: Bearer ${'k'.repeat(5000)}`]),
    post
      ? sometimes('Content-Type: application/json', ['', 'Content-Type: text/plain', 'Content-Type: application/json; charset=latin-9'])
      : '',
    post ? length : '',
    sometimes('', [
      'X-Odd: a\rb',
      `X-Big: ${'b'.repeat(20_000)}`,
      'No colon here',
      'Bad Name: x',
      'X-Nul: a\x00b',
      ' Folded: x',
      'Connection: close',
      'Expect: bogus',
      'Expect: 100-continue',
    ]),
  ].filter((line) => line !== '');
  return `${method} ${target} ${version}\r\n${headers.join('\r\n')}\r\n\r\n${body}`;
}

describe.each(DATABASE_KINDS)('random bad input on %s', (kind) => {
  // Short time-outs, so that a raw request whose body never arrives is answered, and a kept-alive
  // connection closed, quickly.
  const ctx = useApp(kind, {
    RATE_LIMIT_PER_MINUTE: '0',
    AUTH_FAILURES_PER_MINUTE: '0',
    HEADERS_TIMEOUT_MS: '1000',
    REQUEST_TIMEOUT_MS: '1500',
    KEEP_ALIVE_TIMEOUT_MS: '300',
  });
  let base: string;

  beforeAll(async () => {
    const server: Server = ctx.app.getHttpServer();
    if (!server.listening) await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  it(`answers ${REQUESTS} random requests without a 5xx, each error in the Error shape, and stores only what it acknowledged`, async () => {
    const random = seeded(SEED);
    const created = new Set<number>();
    const problems: unknown[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const { method, path, headers, body } = randomRequest(random);
      const response = await fetch(base + path, { method, headers, body, signal: AbortSignal.timeout(5_000) });
      const text = await response.text();
      const described = { i, method, path, headers: Object.keys(headers), status: response.status, text: text.slice(0, 160) };
      if (response.status >= 500) problems.push(described);
      if (response.status >= 400 && method !== 'HEAD') {
        const error = (() => {
          try {
            return JSON.parse(text);
          } catch {
            return undefined;
          }
        })();
        const shaped = typeof error?.code === 'string' && typeof error?.message === 'string' && error?.status === response.status;
        if (!shaped) problems.push({ ...described, problem: 'not the Error shape' });
      }
      if (response.status === 201 && path === '/v1/pets') created.add(JSON.parse(text).id);
    }
    expect(problems).toEqual([]);

    const stored: number[] = [];
    for (let url = `${base}/v1/pets?limit=100`; url;) {
      const page = await fetch(url, { headers: { Authorization: `Bearer ${TEST_API_KEY}` } });
      stored.push(...((await page.json()) as { id: number }[]).map((pet) => pet.id));
      url = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1] ?? '';
    }
    expect(created.size).toBeGreaterThan(0);
    expect(stored.sort((a, b) => a - b)).toEqual([...created].sort((a, b) => a - b));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`answers ${RAW_REQUESTS} random raw requests each with an answer, none a 5xx, every error in the Error shape`, async () => {
    const random = seeded(SEED + 1);
    const port = Number(new URL(base).port);
    const problems: unknown[] = [];
    for (let batch = 0; batch < RAW_REQUESTS / 10; batch++) {
      const requests = Array.from({ length: 10 }, () => randomRawRequest(random));
      const responses = await Promise.all(requests.map((raw) => rawExchange(port, [raw], { waitMs: 4_000 })));
      responses.forEach((response, i) => {
        const described = { request: requests[i].slice(0, 120), status: response.status, body: response.body.slice(0, 160) };
        if (response.status === undefined || response.status >= 500) problems.push(described);
        else if (response.status >= 400 && requests[i].startsWith('HEAD ')) return;
        else if (response.status >= 400) {
          const error = (() => {
            try {
              return JSON.parse(response.body);
            } catch {
              return undefined;
            }
          })();
          const shaped = typeof error?.code === 'string' && typeof error?.message === 'string' && error?.status === response.status;
          if (!shaped) problems.push({ ...described, problem: 'not the Error shape' });
        }
      });
    }
    expect(problems).toEqual([]);
  });
});
