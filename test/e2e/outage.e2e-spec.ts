import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { mysqlServerUrl } from './support/global-setup.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { AUTH, expectError, startApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

/** The answer to `send`, and how long it took. */
async function timed(send: () => Promise<request.Response>): Promise<{ response: request.Response; ms: number }> {
  const started = Date.now();
  const response = await send();
  return { response, ms: Date.now() - started };
}

async function eventually(probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((wait) => setTimeout(wait, 200));
  }
}

// The outage is MySQL's: the embedded SQLite file cannot become unreachable.
describe.each(DATABASE_KINDS.filter((kind) => kind === 'mysql'))('a database outage on %s', (kind) => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let app: NestExpressApplication;
  const http = () => request(app.getHttpServer());
  const acknowledged: { id: number; name: string }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const direct = new URL(database.url);
    proxy = await TcpProxy.start(direct.hostname, Number(direct.port || 3306));
    const viaProxy = new URL(database.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    app = await startApp({ ...database, url: viaProxy.href });
    for (const name of ['Before 1', 'Before 2']) {
      const created = await http().post('/v1/pets').set(AUTH).send({ name, categoryId: 1 });
      expect(created.status).toBe(201);
      acknowledged.push(created.body);
    }
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await database?.drop();
  });

  describe.each(['reset', 'silent'] as const)('when the connection is cut (%s)', (how) => {
    beforeAll(() => proxy.cut(how));

    it('answers API requests with SERVICE_UNAVAILABLE and Retry-After within 5 s, never a 500', async () => {
      for (const send of [
        () => http().get('/v1/pets').set(AUTH),
        () => http().post('/v1/pets').set(AUTH).send({ name: 'During', categoryId: 1 }),
        () => http().get(`/v1/pets/${acknowledged[0].id}`).set(AUTH),
        () => http().get('/v1/store/inventory').set(AUTH),
      ]) {
        const { response, ms } = await timed(send);
        expectError(response, 503, 'SERVICE_UNAVAILABLE');
        expect(response.headers['retry-after']).toBe('5');
        expect(ms).toBeLessThan(5_000);
      }
    });

    it('turns readiness red and keeps liveness green', async () => {
      const { response, ms } = await timed(() => http().get('/health/ready'));
      expectError(response, 503, 'SERVICE_UNAVAILABLE');
      expect(ms).toBeLessThan(5_000);
      expect((await http().get('/health/live')).status).toBe(200);
    });

    it('recovers by itself once the database is back, with every acknowledged pet', async () => {
      proxy.restore();
      await eventually(async () => (await http().get('/v1/pets').set(AUTH)).status === 200, 15_000);
      expect((await http().get('/health/ready')).status).toBe(200);
      const created = await http().post('/v1/pets').set(AUTH).send({ name: `After ${how}`, categoryId: 1 });
      expect(created.status).toBe(201);
      acknowledged.push(created.body);
      const listed = (await http().get('/v1/pets?limit=100').set(AUTH)).body;
      for (const pet of acknowledged) expect(listed).toContainEqual(expect.objectContaining(pet));
    });
  });
});

// The soak script is an operator's tool, not a test, but it must keep working: a short run of it.
describe.each(DATABASE_KINDS.filter((kind) => kind === 'mysql'))('npm run soak on %s', () => {
  it('passes a short run with the database cut in the middle', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/soak/soak.ts'], {
      env: { ...process.env, TEST_DATABASE_URL: mysqlServerUrl(), SOAK_SECONDS: '6', SOAK_OUTAGE_SECONDS: '2', SOAK_CONCURRENCY: '4' },
      timeout: 50_000,
    });
    const figures = JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1));
    expect(figures).toMatchObject({ lostWrites: 0, petsStoredTwice: 0, responses500: 0 });
    expect(figures.acknowledgedWrites).toBeGreaterThan(0);
    expect(figures.responsesByStatus['503']).toBeGreaterThan(0);
  });
});
