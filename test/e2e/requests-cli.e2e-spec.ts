import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ServiceProcess } from './support/service-process.js';
import { AUTH, expectError, startApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

const REQUESTS_SCRIPT = resolve('dist/src/cli/requests.js');

/** The operator's command (`npm run requests -- tail|show`), run as its own process against the service's database. */
describe.each(DATABASE_KINDS)('the request log for the operator, and with REQUEST_LOG_READS, on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  const http = () => request(app.getHttpServer());
  const cli = (...args: string[]) =>
    new ServiceProcess({ DATABASE_URL: database.url, PATH: process.env.PATH ?? '' }, process.cwd(), REQUESTS_SCRIPT, args);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await startApp(database, { REQUEST_LOG_READS: 'true' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('keeps successful reads too with REQUEST_LOG_READS=true', async () => {
    await http().get('/v1/pets').set(AUTH).set('X-Request-Id', 'cli-read');
    const deadline = Date.now() + 2_000;
    let found = await http().get('/v1/requests/cli-read').set(AUTH);
    while (found.status !== 200 && Date.now() < deadline) found = await http().get('/v1/requests/cli-read').set(AUTH);
    expect(found.body).toMatchObject({ method: 'GET', status: 200, operation: 'listPets', error: null });
  });

  it('shows one request whole, what only the operator sees of it included', async () => {
    await http().post('/v1/pets').set(AUTH).set('X-Request-Id', 'cli-show').set('User-Agent', 'shop-backend/2.1').send({ name: '' });
    let shown = cli('show', 'cli-show');
    for (let tries = 0; (await shown.exitCode()) !== 0 && tries < 20; tries++) {
      await new Promise((wait) => setTimeout(wait, 100));
      shown = cli('show', 'cli-show');
    }
    expect(shown.stdout).toMatch(/^id\s+cli-show$/m);
    expect(shown.stdout).toMatch(/^operation\s+createPet$/m);
    expect(shown.stdout).toMatch(/^status\s+400$/m);
    expect(shown.stdout).toMatch(/^error\s+VALIDATION_FAILED: name must be/m);
    expect(shown.stdout).toMatch(/^key\s+env-[0-9a-f]{12}$/m);
    expect(shown.stdout).toMatch(/^clientAddress\s+\S+$/m);
    expect(shown.stdout).toMatch(/^userAgent\s+shop-backend\/2\.1$/m);
    const missing = cli('show', 'no-such-request');
    expect(await missing.exitCode()).toBe(1);
    expect(missing.stderr).toMatch(/^requests: no request has id "no-such-request"/);
    expect(await cli('show').exitCode()).toBe(2);
  });

  it('follows new entries of every key, filtered, a line each, until interrupted', async () => {
    const tail = cli('tail', '--status', '4xx');
    try {
      await tail.waitForOutput(/following new entries/);
      await http().post('/v1/pets').set(AUTH).set('X-Request-Id', 'cli-tail-ok').send({ name: 'Tailed', categoryId: 1 });
      expectError(await http().get('/v1/pets/987654321').set(AUTH).set('X-Request-Id', 'cli-tail-missing'), 404, 'PET_NOT_FOUND');
      const [line] = await tail.waitForOutput(/^.*\/v1\/pets\/987654321.*$/m, 5_000);
      expect(line).toMatch(
        /^\d{4}-\d\d-\d\dT\S+Z {2}404 {2}getPet\s+GET {2}\/v1\/pets\/987654321 {2}env-[0-9a-f]{12} {2}\d+ms {2}PET_NOT_FOUND$/,
      );
      expect(tail.stdout).not.toContain('Tailed');
      expect(tail.stdout).not.toContain('POST');
      tail.child.kill('SIGINT');
      expect(await tail.exitCode()).toBe(0);
    } finally {
      await tail.stop();
    }
  });
});
