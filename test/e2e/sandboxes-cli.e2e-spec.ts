import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ApiKeyIssuer } from '../../src/auth/api-key-issuer.js';
import { environmentOf, insertPets } from './support/sandbox-rows.js';
import { runApiKeyCli, runSandboxesCli } from './support/service-process.js';
import { AUTH, expectError, startApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

/**
 * The operator's tools for sandboxes, run as processes as an operator runs them, beside a running
 * service: a key of a sandbox (`apikey create --sandbox`), and `sandboxes list` and `delete`.
 */
describe.each(DATABASE_KINDS)('the sandboxes tools on %s', (kind) => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  const http = () => request(app.getHttpServer());
  const env = () => ({ DATABASE_URL: database.url });
  const newSandbox = async (name: string, expiresIn = 3600) =>
    (await http().post('/v1/sandboxes').set(AUTH).send({ name, expiresIn }).expect(201)).body;
  /** Whether the service admits `key` as a sandbox's (which is refused sandbox management), not 401. */
  const admitted = async (key: string) => (await http().get('/v1/sandboxes').set('Authorization', `Bearer ${key}`)).status === 403;
  const keyOf = async (id: number) => (await app.get(ApiKeyIssuer).list()).find((key) => key.id === id)!;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '0', API_KEY_CACHE_MS: '30000' });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('makes a key of a sandbox: psk_test_, in the sandbox, without the sandboxes scopes, expiring with it', async () => {
    const sandbox = await newSandbox('tool keys');
    const made = await runApiKeyCli(['create', 'second key', '--sandbox', sandbox.id], env());
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^psk_test_[A-Za-z0-9_-]{43}\n$/);
    expect(made.stderr).toContain(`"second key" of sandbox ${sandbox.id}`);
    const key = await keyOf(Number(/Created API key (\d+)/.exec(made.stderr)![1]));
    expect(key.environment).toBe(await environmentOf(app, sandbox.id));
    expect(key.scopes).toBe('pets:read pets:write store:read store:write webhooks:read webhooks:write requests:read');
    expect(key.expiresAt?.toISOString()).toBe(sandbox.expiresAt);
    expect(await admitted(made.stdout.trim())).toBe(true);
    // The key tool's listing says whose it is.
    const listed = await runApiKeyCli(['list'], env());
    expect(listed.stdout.split('\n').find((line) => line.includes('second key'))).toMatch(new RegExp(`\\s${sandbox.id}$`));
  });

  it('gives a sandbox key an expiry no later than its sandbox’s, sooner when asked', async () => {
    const sandbox = await newSandbox('capped');
    const later = await runApiKeyCli(['create', 'asks too long', '--sandbox', sandbox.id, '--expires-in', '90d'], env());
    expect(later.code).toBe(0);
    expect(later.stderr).toContain(`--expires-in 90d is after sandbox ${sandbox.id} expires; the key stops when it does`);
    expect((await keyOf(Number(/Created API key (\d+)/.exec(later.stderr)![1]))).expiresAt?.toISOString()).toBe(sandbox.expiresAt);

    const sooner = await runApiKeyCli(['create', 'short', '--sandbox', sandbox.id, '--expires-in', '30m', '--scopes', 'pets:read'], env());
    expect(sooner.code).toBe(0);
    const key = await keyOf(Number(/Created API key (\d+)/.exec(sooner.stderr)![1]));
    expect(key.scopes).toBe('pets:read');
    expect(key.expiresAt!.getTime()).toBeLessThan(Date.parse(sandbox.expiresAt) - 29 * 60_000);
  });

  it('refuses a key of an unknown or deleted sandbox (1), and a malformed id (2), making none', async () => {
    const sandbox = await newSandbox('deleted first');
    await http().delete(`/v1/sandboxes/${sandbox.id}`).set(AUTH).expect(202);
    for (const id of ['sbx_nosuchsandbox', sandbox.id]) {
      expect(await runApiKeyCli(['create', 'nope', '--sandbox', id], env())).toEqual({
        code: 1,
        stdout: '',
        stderr: `apikey: no sandbox in use has id ${id} (unknown, deleted or expired)\n`,
      });
    }
    const malformed = await runApiKeyCli(['create', 'nope', '--sandbox', '42'], env());
    expect(malformed).toMatchObject({ code: 2, stdout: '' });
    expect(malformed.stderr).toContain("--sandbox must be a sandbox's id");
    expect((await app.get(ApiKeyIssuer).list()).filter((key) => key.name === 'nope')).toEqual([]);
  });

  it('lists every sandbox stored with its state and rows, and deletes one: its keys refused within 1 s', async () => {
    // An escape sequence, and text that only looks like one: the second must not print as the first.
    const sandbox = await newSandbox('listed \x1b[31m \\x1b');
    await insertPets(app, await environmentOf(app, sandbox.id), 3);
    const listed = await runSandboxesCli(['list'], env());
    expect(listed.code).toBe(0);
    const [header, ...lines] = listed.stdout.trimEnd().split('\n');
    expect(header.split(/\s{2,}/)).toEqual(['ID', 'NAME', 'CREATED', 'EXPIRES', 'STATE', 'PETS', 'ROWS']);
    const line = lines.find((each) => each.startsWith(sandbox.id))!;
    expect(line.split(/\s{2,}/)).toEqual([
      sandbox.id,
      'listed \\x1b[31m \\\\x1b',
      sandbox.createdAt.replace(/\.\d{3}Z$/, 'Z'),
      sandbox.expiresAt.replace(/\.\d{3}Z$/, 'Z'),
      'active',
      '3',
      '4',
    ]);

    expect(await admitted(sandbox.apiKey)).toBe(true);
    const deleted = await runSandboxesCli(['delete', sandbox.id], env());
    const deletedAt = Date.now();
    expect(deleted).toEqual({
      code: 0,
      stdout:
        `Deleted sandbox ${sandbox.id} "listed \\x1b[31m \\\\x1b": its 1 API keys are refused within 1 second on every instance; ` +
        'the service removes its rows in the background.\n',
      stderr: '',
    });
    while ((await admitted(sandbox.apiKey)) && Date.now() - deletedAt < 5_000) await new Promise((wait) => setTimeout(wait, 20));
    expect(Date.now() - deletedAt).toBeLessThan(1_000);
    expectError(await http().get(`/v1/sandboxes/${sandbox.id}`).set(AUTH), 404, 'SANDBOX_NOT_FOUND');
    expect(await runSandboxesCli(['delete', sandbox.id], env())).toEqual({
      code: 1,
      stdout: '',
      stderr: `sandboxes: no sandbox in use has id ${sandbox.id} (unknown, deleted or expired)\n`,
    });
  });

  it('says how to use it, and refuses what it does not know with 2', async () => {
    const help = await runSandboxesCli(['--help'], env());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: npm run sandboxes -- list | delete SANDBOX_ID | --help');
    for (const args of [[], ['remove', 'sbx_x'], ['delete'], ['delete', 'not-an-id'], ['list', 'extra']]) {
      expect(await runSandboxesCli(args, env())).toMatchObject({ code: 2, stdout: '' });
    }
  });
});
