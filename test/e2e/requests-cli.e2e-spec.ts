import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createSandbox } from '../support/sandbox-keys.js';
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
    expect(shown.stdout).toMatch(/^environment\s+live$/m);
    expect(shown.stdout).toMatch(/^clientAddress\s+\S+$/m);
    expect(shown.stdout).toMatch(/^userAgent\s+shop-backend\/2\.1$/m);
    const missing = cli('show', 'no-such-request');
    expect(await missing.exitCode()).toBe(1);
    expect(missing.stderr).toMatch(/^requests: no request has id "no-such-request"/);
    expect(await cli('show').exitCode()).toBe(2);
  });

  it('follows new entries of every key, filtered, a line each, until interrupted', async () => {
    const tail = cli('tail', '--lines', '0', '--status', '4xx');
    try {
      await tail.waitForOutput(/following new entries/);
      await http().post('/v1/pets').set(AUTH).set('X-Request-Id', 'cli-tail-ok').send({ name: 'Tailed', categoryId: 1 });
      expectError(await http().get('/v1/pets/987654321').set(AUTH).set('X-Request-Id', 'cli-tail-missing'), 404, 'PET_NOT_FOUND');
      const [line] = await tail.waitForOutput(/^.*\/v1\/pets\/987654321.*$/m, 5_000);
      expect(line).toMatch(
        /^\d{4}-\d\d-\d\dT\S+Z {2}404 {2}getPet\s+GET {2}\/v1\/pets\/987654321 {2}env-[0-9a-f]{12} {2}live {2}\d+ms {2}PET_NOT_FOUND$/,
      );
      expect(tail.stdout).not.toContain('Tailed');
      expect(tail.stdout).not.toContain('POST');
      tail.child.kill('SIGINT');
      expect(await tail.exitCode()).toBe(0);
    } finally {
      await tail.stop();
    }
  });

  it('prints the last few entries first, oldest of them first, as tail does, then follows', async () => {
    for (let i = 0; i < 3; i++) await http().delete(`/v1/pets/98765430${i}`).set(AUTH).set('X-Request-Id', `cli-last-${i}`);
    let shown = cli('show', 'cli-last-2');
    for (let tries = 0; (await shown.exitCode()) !== 0 && tries < 20; tries++) {
      await new Promise((wait) => setTimeout(wait, 100));
      shown = cli('show', 'cli-last-2');
    }
    const tail = cli('tail', '-n', '2', '--operation', 'deletePet');
    try {
      await tail.waitForOutput(/following new entries/);
      const printed = tail.stdout.trimEnd().split('\n');
      expect(printed).toHaveLength(2);
      expect(printed[0]).toMatch(/ DELETE {2}\/v1\/pets\/987654301 .*PET_NOT_FOUND$/);
      expect(printed[1]).toMatch(/ DELETE {2}\/v1\/pets\/987654302 .*PET_NOT_FOUND$/);
      await http().delete('/v1/pets/987654303').set(AUTH);
      await tail.waitForOutput(/\/v1\/pets\/987654303/, 5_000);
    } finally {
      await tail.stop();
    }
    expect(await cli('tail', '--lines', 'many').exitCode()).toBe(2);
  });

  it('shows and follows the entries of every environment, each with its own: live, or the sandbox’s number', async () => {
    const { auth, environment } = await createSandbox(app, 'tailed sandbox');
    const tail = cli('tail', '--lines', '0', '--operation', 'createPet');
    try {
      await tail.waitForOutput(/following new entries/);
      await http().post('/v1/pets').set(auth).set('X-Request-Id', 'cli-sandbox').send({ name: '' });
      await http().post('/v1/pets').set(AUTH).set('X-Request-Id', 'cli-live').send({ name: '' });
      await tail.waitForOutput(/\/v1\/pets .* live .*VALIDATION_FAILED$/m, 5_000);
      expect(tail.stdout).toMatch(
        new RegExp(
          `^\\S+ {2}400 {2}createPet\\s+POST {2}/v1/pets {2}key-\\d+ {2}sandbox ${environment.id} {2}\\d+ms {2}VALIDATION_FAILED$`,
          'm',
        ),
      );
      expect(tail.stdout).toMatch(
        /^\S+ {2}400 {2}createPet\s+POST {2}\/v1\/pets {2}env-[0-9a-f]{12} {2}live {2}\d+ms {2}VALIDATION_FAILED$/m,
      );
    } finally {
      await tail.stop();
    }
    const shown = cli('show', 'cli-sandbox');
    expect(await shown.exitCode()).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^environment\\s+sandbox ${environment.id}$`, 'm'));
  });

  it('prints what a client sent with its control characters escaped: it can neither drive the terminal nor forge a line', async () => {
    // A property name is quoted in the error's message as sent; a header's bytes 0x80 to 0xff arrive as C1 controls.
    const forged = '\u001b[2J\u001b[H\nkey            key-1\r\nclientAddress  10.0.0.1\u202e';
    await http()
      .post('/v1/pets')
      .set(AUTH)
      .set('X-Request-Id', 'cli-escape')
      .set('User-Agent', 'agent\u009b2J')
      .send({ name: 'Rex', categoryId: 1, [forged]: 1 });
    let shown = cli('show', 'cli-escape');
    for (let tries = 0; (await shown.exitCode()) !== 0 && tries < 20; tries++) {
      await new Promise((wait) => setTimeout(wait, 100));
      shown = cli('show', 'cli-escape');
    }
    // Nothing a terminal acts on: only printable text, and the newline that ends each field.
    // eslint-disable-next-line no-control-regex -- the control characters are what it looks for
    expect(shown.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028-\u202e]/);
    expect(shown.stdout.match(/^key\s/gm)).toHaveLength(1);
    expect(shown.stdout.match(/^clientAddress\s/gm)).toHaveLength(1);
    expect(shown.stdout).toMatch(/^key\s+env-[0-9a-f]{12}$/m);
    expect(shown.stdout).toContain('\\x1b[2J\\x1b[H\\nkey            key-1\\r\\nclientAddress  10.0.0.1\\u202e');
    // The client sends U+009B as UTF-8 (C2 9B), which a header's Latin-1 reads as Â and the control.
    expect(shown.stdout).toMatch(/^userAgent\s+agent\u00c2?\\x9b2J$/m);
    const tail = cli('tail', '-n', '1', '--status', '400');
    try {
      await tail.waitForOutput(/following new entries/);
      // eslint-disable-next-line no-control-regex -- the control characters are what it looks for
      expect(tail.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    } finally {
      await tail.stop();
    }
  });
});
