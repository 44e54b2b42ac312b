import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { REDIS_PROBE_VARIABLE, redisServerUrl, removeRedisKeys } from './support/global-setup.js';
import { runApiKeyCli, type ServiceProcess } from './support/service-process.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';
import { useServiceProcesses } from './support/use-service-processes.js';

/** The `r` (remaining) of a `RateLimit: "per-key";r=…;t=…` header. */
const remaining = (response: Response) => Number(/;r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1]);

/** A proxy to the test Redis, to take it away, and the REDIS_URL that goes through it. */
async function proxiedRedis(): Promise<{ proxy: TcpProxy; url: string }> {
  const redis = new URL(redisServerUrl());
  const proxy = await TcpProxy.start(redis.hostname, Number(redis.port || 6379));
  return { proxy, url: `redis://127.0.0.1:${proxy.port}${redis.pathname}` };
}

// Several instances need MySQL (the SQLite file is for one) and Redis.
const KINDS = process.env[REDIS_PROBE_VARIABLE] === 'available' ? DATABASE_KINDS.filter((kind) => kind === 'mysql') : [];

describe.each(KINDS)('three instances sharing Redis, on %s', (kind) => {
  const processes = useServiceProcesses();
  // Keys and channels of this run only, so parallel runs never share counters; removed afterwards.
  const prefix = `petstore-e2e-${process.pid}-${randomBytes(4).toString('hex')}:`;
  let database: TestDatabase;
  let redisProxy: TcpProxy;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const proxied = await proxiedRedis();
    redisProxy = proxied.proxy;
    env = { DATABASE_URL: database.url, REDIS_URL: proxied.url, REDIS_KEY_PREFIX: prefix };
  });
  afterAll(async () => {
    await redisProxy?.close();
    await database?.drop();
    await removeRedisKeys(prefix);
  });

  /** Resolves once the instance at `base` says in its readiness that it shares the count (5 s at most). */
  async function untilShared(base: string): Promise<void> {
    const shared = async () =>
      ((await (await fetch(`${base}/health/ready`)).json()) as { details?: { redis?: { shared?: boolean } } }).details?.redis?.shared;
    for (let tries = 0; !(await shared()); tries++) {
      expect(tries).toBeLessThan(50);
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }

  /** Three service processes on one database and one Redis, and their base URLs; the first applies the migrations. */
  async function startThree(extra: Record<string, string>): Promise<{ services: ServiceProcess[]; bases: string[] }> {
    const services: ServiceProcess[] = [];
    const bases: string[] = [];
    for (let i = 0; i < 3; i++) {
      const service = await processes.spawn({ ...env, ...extra, MIGRATIONS_RUN: String(i === 0) });
      services.push(service);
      bases.push(await service.listening());
    }
    return { services, bases };
  }

  /**
   * 90 requests with a new key limited to 60, across three new instances in turn: their answers, and
   * the lines in which an instance said it lost Redis. Their logs are written in batches (4 KB, or a
   * second): they are stopped first, so that each has written all it logged.
   */
  async function ninetyRequests(): Promise<{ answers: { status: number; remaining: number }[]; lostRedis: string[] }> {
    const key = `shared-limit-${randomBytes(6).toString('hex')}`;
    const { services, bases } = await startThree({ API_KEYS: key, RATE_LIMIT_PER_MINUTE: '60' });
    const answers: { status: number; remaining: number }[] = [];
    for (let i = 0; i < 90; i++) {
      const response = await fetch(`${bases[i % 3]}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      answers.push({ status: response.status, remaining: remaining(response) });
    }
    await Promise.all(services.map((service) => service.terminate()));
    const lines = services.flatMap((service) => `${service.stdout}\n${service.stderr}`.split('\n'));
    return { answers, lostRedis: lines.filter((line) => line.includes('Redis cannot be reached')) };
  }

  it('holds a key to its limit across all three: 60 of 90 requests answered, RateLimit counting down together', async () => {
    // An instance that lost Redis counts alone for a second, as designed, and answers more: a Redis
    // silent for 250 ms is given up on, and a saturated machine (CI's npm test) can starve it that
    // long. Such a try is made again, with a new key and three new instances, three tries at most;
    // a try in which none lost Redis must hold the limit exactly.
    let { answers, lostRedis } = await ninetyRequests();
    for (let tries = 1; lostRedis.length > 0 && tries < 3; tries++) ({ answers, lostRedis } = await ninetyRequests());
    expect(lostRedis).toEqual([]);
    const served = answers.filter((answer) => answer.status !== 429);
    expect(served.map((answer) => answer.status)).toEqual(Array(60).fill(200));
    expect(served.map((answer) => answer.remaining)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    expect(answers.slice(60)).toEqual(Array(30).fill({ status: 429, remaining: 0 }));
  });

  it('starts sharing from its first request when Redis answers only after the service asked: it waits for Redis before it listens', async () => {
    // The database migrated first, so that the service's start is quick and only Redis can hold it.
    const migrating = await processes.spawn({ DATABASE_URL: database.url, MIGRATIONS_RUN: 'true' });
    await migrating.listening();
    await migrating.stop();
    const { proxy: slowRedis, url: slowRedisUrl } = await proxiedRedis();
    try {
      slowRedis.partition();
      const key = `slow-redis-${randomBytes(6).toString('hex')}`;
      const keyPrefix = `${prefix}slow:`;
      const service = await processes.spawn({
        ...env,
        REDIS_URL: slowRedisUrl,
        REDIS_KEY_PREFIX: keyPrefix,
        API_KEYS: key,
        RATE_LIMIT_PER_MINUTE: '60',
        MIGRATIONS_RUN: 'false',
      });
      for (let waited = 0; slowRedis.heldCount === 0; waited += 20) {
        expect(waited).toBeLessThan(15_000);
        await new Promise((wait) => setTimeout(wait, 20));
      }
      // Redis has been asked and says nothing for 400 ms: the service must not listen meanwhile.
      const first = await Promise.race([
        service.listening().then(() => 'listened while Redis had not answered'),
        new Promise((wait) => setTimeout(() => wait('waited for Redis'), 400)),
      ]);
      expect(first).toBe('waited for Redis');
      slowRedis.restore();
      const base = await service.listening();
      const response = await fetch(`${base}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      // Counted in Redis, where every instance sees it, not in this instance's memory alone.
      const counter = new Redis(redisServerUrl());
      try {
        const counted = await counter.keys(`${keyPrefix}rate:*`);
        expect(await Promise.all(counted.map((name) => counter.get(name)))).toEqual(['1']);
      } finally {
        counter.disconnect();
      }
      expect(service.stderr + service.stdout).not.toContain('Redis cannot be reached');
    } finally {
      await slowRedis.close();
    }
  });

  it.each([
    ['says nothing', (proxy: TcpProxy) => proxy.partition()],
    ['refuses connections', (proxy: TcpProxy) => proxy.cut('reset')],
  ])('starts and serves, counting alone, when Redis %s at the start, and says so before it listens', async (_, away) => {
    const { proxy: awayRedis, url: awayRedisUrl } = await proxiedRedis();
    try {
      away(awayRedis);
      const key = `no-redis-${randomBytes(6).toString('hex')}`;
      const service = await processes.spawn({
        ...env,
        REDIS_URL: awayRedisUrl,
        API_KEYS: key,
        RATE_LIMIT_PER_MINUTE: '60',
      });
      const base = await service.listening();
      expect(service.stderr + service.stdout).toMatch(/"level":40,.*Redis cannot be reached .*\n.*Listening on/);
      const response = await fetch(`${base}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBe('"per-key";r=59;t=60');
      // Once Redis answers, the instance shares again by itself.
      awayRedis.restore();
      await untilShared(base);
    } finally {
      await awayRedis.close();
    }
  });

  it('refuses a key revoked through the CLI on all three within 1 s', async () => {
    const { bases } = await startThree({});
    const created = await runApiKeyCli(['create', 'revoked-everywhere'], env);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    const id = /Created API key (\d+)/.exec(created.stderr)![1];
    for (const base of bases) expect((await fetch(`${base}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);

    const revoked = await runApiKeyCli(['revoke', id], env);
    expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining('within 1 second') });
    const revokedAt = Date.now();
    const refusedAfter = await Promise.all(
      bases.map(async (base) => {
        while ((await fetch(`${base}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } })).status !== 401) {
          if (Date.now() - revokedAt > 5_000) return Infinity;
          await new Promise((wait) => setTimeout(wait, 50));
        }
        return Date.now() - revokedAt;
      }),
    );
    expect(Math.max(...refusedAfter)).toBeLessThan(1_000);
    if (process.env.PRINT_REDIS_FIGURES) process.stdout.write(`revocation: refused by the three after ${refusedAfter.join(', ')} ms\n`);
  });

  /** How long after `since` each base first answers `probe` true; Infinity past 5 s. */
  async function allWithin(bases: string[], since: number, probe: (base: string) => Promise<boolean>): Promise<number[]> {
    return Promise.all(
      bases.map(async (base) => {
        while (!(await probe(base))) {
          if (Date.now() - since > 5_000) return Infinity;
          await new Promise((wait) => setTimeout(wait, 50));
        }
        return Date.now() - since;
      }),
    );
  }

  it('applies a roll and a changed scope set on all three within 1 s', async () => {
    const { bases } = await startThree({});
    const created = await runApiKeyCli(['create', 'rolled-everywhere'], env);
    const key = created.stdout.trim();
    const id = /Created API key (\d+)/.exec(created.stderr)![1];
    const get = (base: string, path: string, bearer = key) => fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${bearer}` } });
    for (const base of bases) expect((await get(base, '/v1/pets')).headers.get('api-key-expires')).toBeNull();

    const rolled = await runApiKeyCli(['roll', id, '--overlap', '24h'], env);
    expect(rolled).toMatchObject({ code: 0, stderr: expect.stringContaining('within 1 second') });
    const rolledAt = Date.now();
    const successor = rolled.stdout.trim();
    // The old key now expires within a day: every instance says so on its responses.
    const announced = await allWithin(
      bases,
      rolledAt,
      async (base) => (await get(base, '/v1/pets')).headers.get('api-key-expires') !== null,
    );
    expect(Math.max(...announced)).toBeLessThan(1_000);
    for (const base of bases) expect((await get(base, '/v1/pets', successor)).status).toBe(200);

    const successorId = /to key (\d+)/.exec(rolled.stderr)![1];
    expect((await runApiKeyCli(['scopes', successorId, '--scopes', 'store:read'], env)).code).toBe(0);
    const rescopedAt = Date.now();
    const refused = await allWithin(bases, rescopedAt, async (base) => (await get(base, '/v1/pets', successor)).status === 403);
    expect(Math.max(...refused)).toBeLessThan(1_000);
    for (const base of bases) expect((await get(base, '/v1/store/inventory', successor)).status).toBe(200);
  });

  it.each([
    ['refuses connections', (proxy: TcpProxy) => proxy.cut('reset')],
    ['goes silent', (proxy: TcpProxy) => proxy.partition()],
  ])('serves on when Redis %s mid-traffic, no answer slower than 1 s, and shares the count again once it is back', async (_, cut) => {
    const key = `redis-cut-${randomBytes(6).toString('hex')}`;
    const { bases } = await startThree({ API_KEYS: key, RATE_LIMIT_PER_MINUTE: '100000' });
    const send = async (i: number) => {
      const started = Date.now();
      const response = await fetch(`${bases[i % 3]}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      return { status: response.status, ms: Date.now() - started, remaining: remaining(response) };
    };
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await send(i));
    cut(redisProxy);
    for (let i = 0, until = Date.now() + 3_000; Date.now() < until; i++) answers.push(await send(i));
    redisProxy.restore();
    expect(answers.filter((answer) => answer.status !== 200 || answer.ms >= 1_000)).toEqual([]);
    if (process.env.PRINT_REDIS_FIGURES) {
      process.stdout.write(`redis ${_}: ${answers.length} requests, slowest ${Math.max(...answers.map((a) => a.ms))} ms\n`);
    }

    // Back: each instance says so in its readiness, then one count again runs across all three.
    for (const base of bases) await untilShared(base);
    const after = [];
    for (let i = 0; i < 6; i++) after.push(await send(i));
    expect(after.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    for (let i = 1; i < after.length; i++) expect(after[i].remaining).toBe(after[i - 1].remaining - 1);
  });
});
