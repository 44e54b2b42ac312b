import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { Clock } from '../../src/config/clock.js';
import { REDIS_PROBE_VARIABLE, redisServerUrl, removeRedisKeys } from './support/global-setup.js';
import { runApiKeyCli } from './support/service-process.js';
import { expectError, startApp, TEST_API_KEY } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

const DAY = 86_400_000;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
/** An RFC 3339 time in whole seconds, as --expires-at takes it. */
const rfc3339 = (time: number) => new Date(Math.floor(time / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** Polls until `probe` holds, or fails after 5 s (what the tool promises is 1 s with Redis). */
async function eventually(probe: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > 5_000) throw new Error('not within 5 s');
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/**
 * One log file for the whole file: nestjs-pino keeps its root logger in a static field, so a second
 * app in the same process may still write through the first one's destination.
 */
const logDirectory = mkdtempSync(join(tmpdir(), 'petstore-expiry-'));
afterAll(() => rmSync(logDirectory, { recursive: true, force: true }));
const logLines = () => readFileSync(join(logDirectory, 'service.log'), 'utf8').split('\n').filter(Boolean);

// Rolls are announced through Redis, as in production; without Redis this file has nothing to run on.
const KINDS = process.env[REDIS_PROBE_VARIABLE] === 'available' ? DATABASE_KINDS : [];

describe.each(KINDS)('expiring and rolled API keys on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  let env: Record<string, string>;
  /** The service's clock: real time moved by `offset`, which the tests set instead of waiting. */
  let offset = 0;
  const clock: Clock = { now: () => Date.now() + offset };
  const prefix = `petstore-e2e-${process.pid}-${randomBytes(4).toString('hex')}:`;
  const cli = (...args: string[]) => runApiKeyCli(args, env);
  const createKey = async (...args: string[]) => {
    const result = await cli('create', ...args);
    expect(result.code).toBe(0);
    return { key: result.stdout.trim(), id: /Created API key (\d+)/.exec(result.stderr)![1] };
  };
  const getPets = (key: string) => request(app.getHttpServer()).get('/v1/pets').set(bearer(key));
  const keyRows = () => app.get(DataSource).query('SELECT * FROM api_keys ORDER BY id');

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    env = { DATABASE_URL: database.url, REDIS_URL: redisServerUrl(), REDIS_KEY_PREFIX: prefix };
    app = await startApp(
      database,
      { ...env, API_KEYS: TEST_API_KEY, API_KEY_CACHE_MS: '30000', LOG_LEVEL: 'warn', LOG_FILE: join(logDirectory, 'service.log') },
      { clock },
    );
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await removeRedisKeys(prefix);
  });

  it('serves a key until it expires, says when in its last 7 days, then answers API_KEY_EXPIRED', async () => {
    offset = 0;
    const expiresAt = Date.now() + 30 * DAY;
    const name = `contractor on ${kind}`;
    const { key, id } = await createKey(name, '--expires-at', rfc3339(expiresAt));
    const httpDate = new Date(Math.floor(expiresAt / 1000) * 1000).toUTCString();
    expect((await cli('list')).stdout).toMatch(new RegExp(`${name}\\s+psk_\\S+\\s+\\S+\\s+\\S+\\s+${rfc3339(expiresAt)}\\s`));

    const early = await getPets(key);
    expect(early.status).toBe(200);
    expect(early.headers['api-key-expires']).toBeUndefined();

    offset = 24 * DAY;
    const late = await getPets(key);
    expect(late.status).toBe(200);
    expect(late.headers['api-key-expires']).toBe(httpDate);
    expect((await getPets(key)).headers['api-key-expires']).toBe(httpDate);
    // Warned once a day, by the key's id, never its secret.
    const warnings = () => logLines().filter((line) => JSON.parse(line).msg?.startsWith(`API key key-${id} ("${name}") expires at`));
    // The log file is written asynchronously: wait for the lines, not for time.
    await eventually(async () => warnings().length === 1);
    offset = 25 * DAY;
    await getPets(key);
    await getPets(key);
    await eventually(async () => warnings().length === 2);
    await getPets(key);
    await new Promise((wait) => setTimeout(wait, 200));
    expect(warnings()).toHaveLength(2);
    expect(logLines().some((line) => line.includes(key))).toBe(false);

    offset = 31 * DAY;
    const expired = await getPets(key);
    expectError(expired, 401, 'API_KEY_EXPIRED');
    expect(expired.body.message).toBe(`The API key expired at ${rfc3339(expiresAt)}; use the key that replaced it, or ask for a new one.`);
    expect(expired.headers['www-authenticate']).toBe(
      'Bearer realm="petstore", error="invalid_token", error_description="The API key expired"',
    );
    // Expired is not wrong: an unknown key and a revoked one still share API_KEY_INVALID.
    expectError(await getPets('psk_unknownkeyunknownkeyunknownkeyunknownkey1'), 401, 'API_KEY_INVALID');
    // Before anything else is looked at: a bad body is still the key's 401.
    expectError(await request(app.getHttpServer()).post('/v1/pets').set(bearer(key)).send({}), 401, 'API_KEY_EXPIRED');
  });

  it('makes a key that expires in a given time', async () => {
    offset = 0;
    const before = Date.now();
    const { key } = await createKey('short', '--expires-in', '90d');
    expect((await getPets(key)).status).toBe(200);
    offset = 84 * DAY;
    const expires = Date.parse((await getPets(key)).headers['api-key-expires']);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 90 * DAY);
    expect(expires).toBeLessThanOrEqual(Date.now() + 90 * DAY);
    offset = 91 * DAY;
    expectError(await getPets(key), 401, 'API_KEY_EXPIRED');
  });

  it('rolls a key: the successor works at once, the old key until the overlap ends, both listed and linked', async () => {
    offset = 0;
    const { key: old, id } = await createKey('checkout', '--scopes', 'store:read,store:write');
    expect((await getPets(old)).status).toBe(403);
    expect((await request(app.getHttpServer()).get('/v1/store/inventory').set(bearer(old))).status).toBe(200);

    const rolled = await cli('roll', id, '--overlap', '24h');
    expect(rolled.code).toBe(0);
    const successor = rolled.stdout.trim();
    expect(successor).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    const successorId = /to key (\d+)/.exec(rolled.stderr)![1];
    expect(rolled.stderr).toContain('scopes: store:read,store:write');
    expect(rolled.stderr).toContain('within 1 second');

    const inventory = (key: string) => request(app.getHttpServer()).get('/v1/store/inventory').set(bearer(key));
    expect((await inventory(successor)).status).toBe(200);
    expect((await getPets(successor)).status).toBe(403);
    // The old key works on, and (told through Redis) says it expires within the day.
    await eventually(async () => (await inventory(old)).headers['api-key-expires'] !== undefined);
    expect((await inventory(old)).status).toBe(200);

    const list = (await cli('list')).stdout;
    expect(list).toMatch(new RegExp(`^${id}\\s+checkout\\s+.*\\s+to ${successorId}\\s+live$`, 'm'));
    expect(list).toMatch(
      new RegExp(`^${successorId}\\s+checkout\\s+psk_\\S+\\s+store:read,store:write\\s+.*\\s+never\\s+.*\\s+from ${id}\\s+live$`, 'm'),
    );

    offset = DAY + 60_000;
    expectError(await inventory(old), 401, 'API_KEY_EXPIRED');
    expect((await inventory(successor)).status).toBe(200);

    // Rolled once: the successor is the one to roll.
    const again = await cli('roll', id);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`apikey: API key ${id} was rolled already, to key ${successorId}; roll that one\n`);
  });

  it('keeps the expiry a key had when a roll would give it a later one', async () => {
    offset = 0;
    const expiresAt = Date.now() + DAY;
    const { id } = await createKey('soon', '--expires-at', rfc3339(expiresAt));
    expect((await cli('roll', id, '--overlap', '30d')).code).toBe(0);
    expect((await cli('list')).stdout).toMatch(new RegExp(`^${id}\\s+soon\\s+\\S+\\s+\\S+\\s+\\S+\\s+${rfc3339(expiresAt)}\\s`, 'm'));
  });

  it('changes a key’s scopes on the service within 1 s', async () => {
    offset = 0;
    const { key, id } = await createKey('rescoped');
    expect((await getPets(key)).status).toBe(200);
    const changed = await cli('scopes', id, '--scopes', 'store:read');
    expect(changed).toMatchObject({
      code: 0,
      stdout: `API key ${id} "rescoped" now holds store:read; every instance applies it within 1 second.\n`,
    });
    await eventually(async () => (await getPets(key)).status === 403);
  });

  it('rolls a key with --overlap 0: the old key stops at once (API_KEY_EXPIRED), the successor works', async () => {
    offset = 0;
    const { key: old, id } = await createKey('leaked');
    expect((await getPets(old)).status).toBe(200);
    const rolled = await cli('roll', id, '--overlap', '0');
    expect(rolled.code).toBe(0);
    expect((await getPets(rolled.stdout.trim())).status).toBe(200);
    await eventually(async () => (await getPets(old)).status === 401);
    expectError(await getPets(old), 401, 'API_KEY_EXPIRED');
  });

  it('refuses to roll a revoked key', async () => {
    const { id } = await createKey('gone');
    expect((await cli('revoke', id)).code).toBe(0);
    const result = await cli('roll', id);
    expect(result).toMatchObject({ code: 1, stderr: `apikey: API key ${id} is revoked; a revoked key cannot be rolled\n` });
  });

  it.each([
    [['create', 'bad', '--expires-in', '0'], /--expires-in must be a duration of more than zero, like 45s, 30m, 24h or 90d \(got "0"\)/],
    [['create', 'bad', '--expires-in', '0d'], /--expires-in must be a duration of more than zero/],
    [['create', 'bad', '--expires-in', '2w'], /--expires-in must be a duration/],
    [['create', 'bad', '--expires-at', '2020-01-01T00:00:00Z'], /--expires-at 2020-01-01T00:00:00Z is not in the future/],
    [['create', 'bad', '--expires-at', 'tomorrow'], /--expires-at must be an RFC 3339 time/],
    [['create', 'bad', '--expires-in', '1d', '--expires-at', '2099-01-01T00:00:00Z'], /give --expires-in or --expires-at, not both/],
    [['roll', '1', '--overlap', 'soon'], /--overlap must be 0 or a duration of more than zero/],
    [
      ['roll', '1', '--overlap', '-1s'],
      /Option '--overlap' argument is ambiguous\. To specify an option argument starting with a dash use '--overlap=-XYZ'\./,
    ],
    [['roll'], /roll needs exactly one ID or PREFIX/],
    [['scopes', '1'], /scopes needs exactly one ID or PREFIX and --scopes LIST/],
    [['scopes', '1', '--scopes', 'admin'], /--scopes: "admin" is no scope/],
  ])('refuses %p with exit code 2, one line, and changes nothing', async (args, message) => {
    // Nothing changed, read in the database (every column of every key) rather than by two more
    // processes of the tool (`list`): 44 fewer processes on the two databases, the same check.
    const before = await keyRows();
    const result = await cli(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(await keyRows()).toEqual(before);
  });
});
