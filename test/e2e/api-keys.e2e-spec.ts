import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource, In } from 'typeorm';
import { ApiKey } from '../../src/auth/api-key.entity.js';
import { SCOPES } from '../../src/auth/scopes.js';
import { APIKEY_SCRIPT, runApiKeyCli } from './support/service-process.js';
import { expectError, startApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

const KEY_FORMAT = /^psk_[A-Za-z0-9_-]{43}$/;
const CACHE_MS = 1_000;

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Polls until `probe` holds, or fails after `timeoutMs`. */
async function eventually(probe: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return Date.now() - started;
}

describe.each(DATABASE_KINDS)('API keys on %s', (kind) => {
  let database: TestDatabase;
  let first: NestExpressApplication;
  let second: NestExpressApplication;
  const cli = (...args: string[]) => runApiKeyCli(args, { DATABASE_URL: database.url });
  const getPets = (app: NestExpressApplication, key: string) => request(app.getHttpServer()).get('/v1/pets').set(bearer(key));
  const createKey = async (name: string) => {
    const result = await cli('create', name);
    expect(result.code).toBe(0);
    return result.stdout.trim();
  };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // Two instances on one database, as behind a load balancer; only stored keys (production
    // makes no quick-start key).
    const env = { API_KEYS: '', API_KEY_CACHE_MS: String(CACHE_MS), NODE_ENV: 'production' };
    first = await startApp(database, env);
    second = await startApp(database, env);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
  });

  it('creates a key with the CLI, while the service runs, that the service accepts', async () => {
    const result = await cli('create', 'billing');
    expect(result.code).toBe(0);
    const key = result.stdout.trim();
    expect(key).toMatch(KEY_FORMAT);
    expect(result.stdout).toBe(`${key}\n`);
    expect(result.stderr).toMatch(/Created API key \d+ "billing"\. This is the only time it is shown/);
    expect((await getPets(first, key)).status).toBe(200);
    expect((await getPets(second, key)).status).toBe(200);
  });

  it('makes a different key every time', async () => {
    const keys = new Set([await createKey('a'), await createKey('b'), await createKey('c')]);
    expect(keys.size).toBe(3);
  });

  it('lists keys with id, name, prefix, created, last used and revoked, never the key', async () => {
    const key = await createKey('listed 🔑');
    const result = await cli('list');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual([
      'ID',
      'NAME',
      'PREFIX',
      'SCOPES',
      'CREATED',
      'EXPIRES',
      'LAST USED',
      'REVOKED',
      'ROLLED',
      'ENVIRONMENT',
    ]);
    const row = lines.find((line) => line.includes('listed 🔑'));
    expect(row).toMatch(
      new RegExp(
        `^\\d+\\s+listed 🔑\\s+${key.slice(0, 12)}…\\s+pets:read,pets:write,store:read,store:write,webhooks:read,webhooks:write,requests:read,sandboxes:read,sandboxes:write\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\s+never\\s+never\\s+-\\s+-\\s+live$`,
      ),
    );
    expect(result.stdout).not.toContain(key);
    expect(result.stdout).not.toContain(key.slice(12));
  });

  it('stores only the SHA-256 of a key, never the key', async () => {
    const key = await createKey('hashed');
    const rows = await first.get(DataSource).query('SELECT * FROM api_keys');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(4));
    expect(stored).toContain(createHash('sha256').update(key).digest('hex'));
  });

  it('records when a key was last used, at most once a minute', async () => {
    const key = await createKey('used');
    const lastUsed = async () =>
      (await first.get(DataSource).query(`SELECT last_used_at FROM api_keys WHERE name = 'used'`))[0].last_used_at;
    expect(await lastUsed()).toBeNull();
    await getPets(first, key);
    await eventually(async () => (await lastUsed()) !== null, 5_000);
    const recorded = String(await lastUsed());
    // Well past the column's one-second precision: a write per request would change it.
    await new Promise((wait) => setTimeout(wait, 1_200));
    for (let i = 0; i < 5; i++) expect((await getPets(first, key)).status).toBe(200);
    await new Promise((wait) => setTimeout(wait, 300));
    expect(String(await lastUsed())).toBe(recorded);
    expect((await cli('list')).stdout).toMatch(/used\s+psk_\S+\s+\S+\s+\S+\s+never\s+\d{4}-\d\d-\d\dT\S+Z\s+-\s+-/);
  });

  it('refuses a revoked key on both instances within the window, as it refuses an unknown one', async () => {
    const key = await createKey('to revoke');
    expect((await getPets(first, key)).status).toBe(200);
    expect((await getPets(second, key)).status).toBe(200);
    const id = /^(\d+)\s+to revoke/m.exec((await cli('list')).stdout)![1];

    const revoked = await cli('revoke', id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`Revoked API key ${id} "to revoke"`));

    for (const app of [first, second]) {
      await eventually(async () => (await getPets(app, key)).status === 401, CACHE_MS + 2_000);
      const refused = await getPets(app, key);
      const unknown = await getPets(app, 'psk_not-a-key-at-all');
      expectError(refused, 401, 'API_KEY_INVALID');
      // The same answer but for the request's own id.
      expect({ ...refused.body, requestId: undefined }).toEqual({ ...unknown.body, requestId: undefined });
      expect(refused.headers['www-authenticate']).toBe(unknown.headers['www-authenticate']);
    }
    expect((await cli('list')).stdout).toMatch(new RegExp(`^${id}\\s+to revoke\\s.*\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+-\\s+live$`, 'm'));
  });

  it('revokes by the prefix list shows, pasted with its ellipsis or shortened', async () => {
    const key = await createKey('by prefix');
    const row = (await cli('list')).stdout.split('\n').find((line) => line.includes('by prefix'))!;
    const [id, shown] = [row.split(/\s+/)[0], /psk_\S+…/.exec(row)![0]];
    expect(shown).toBe(`${key.slice(0, 12)}…`);
    const revoked = await cli('revoke', shown);
    expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`Revoked API key ${id} "by prefix"`) });
    expect((await cli('revoke', key.slice(0, 9))).stdout).toContain(`Revoked API key ${id} "by prefix"`);
    await eventually(async () => (await getPets(first, key)).status === 401, CACHE_MS + 2_000);
  });

  it('refuses a prefix that more than one key has, naming them, and revokes neither', async () => {
    const dataSource = first.get(DataSource);
    const twins = ['psk_twinAAAA', 'psk_twinBBBB'];
    for (const prefix of twins) {
      await dataSource
        .getRepository(ApiKey)
        .insert({ name: prefix, prefix, keyHash: createHash('sha256').update(prefix).digest('hex'), createdAt: new Date() });
    }
    const ids = (await dataSource.getRepository(ApiKey).findBy({ prefix: In(twins) })).map((key) => key.id).sort((a, b) => a - b);

    const result = await cli('revoke', 'psk_twin');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `apikey: psk_twin is the start of 2 keys' prefixes (ids ${ids.join(', ')}); name the key by ID, or give more of the prefix\n`,
    );
    expect((await dataSource.getRepository(ApiKey).findBy({ prefix: In(twins) })).map((key) => key.revokedAt)).toEqual([null, null]);
    expect((await cli('revoke', 'psk_twinB')).stdout).toContain(`Revoked API key ${ids[1]} "psk_twinBBBB"`);
  });

  it('warns when a new key takes a name an active key has, and makes it all the same', async () => {
    await createKey('namesake');
    const again = await cli('create', 'namesake');
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toMatch(KEY_FORMAT);
    expect(again.stderr).toMatch(/^apikey: warning: active key \d+ already has the name "namesake"; names are labels/);
    const fresh = await cli('create', 'no namesake');
    expect(fresh.stderr).not.toMatch(/warning/);
  });

  it('treats revoking a revoked key as done', async () => {
    const key = await createKey('twice');
    const id = /^(\d+)\s+twice/m.exec((await cli('list')).stdout)![1];
    expect((await cli('revoke', id)).code).toBe(0);
    expect((await cli('revoke', id)).code).toBe(0);
    await eventually(async () => (await getPets(first, key)).status === 401, CACHE_MS + 2_000);
  });

  it.each([
    [['create'], 2, /create needs exactly one NAME/],
    [['create', ''], 2, /name must be 1 to 100 characters/],
    [['create', 'a', 'b'], 2, /create needs exactly one NAME/],
    [['revoke'], 2, /revoke needs exactly one ID or PREFIX/],
    [['revoke', 'abc'], 2, /revoke needs the numeric ID or the psk_… PREFIX that list shows/],
    [['revoke', '-1'], 2, /revoke needs the numeric ID or the psk_… PREFIX/],
    [['revoke', 'psk_'], 2, /revoke needs the numeric ID or the psk_… PREFIX/],
    [['revoke', '999999'], 1, /no API key has ID 999999/],
    [['revoke', 'psk_unknownprefix'], 1, /no API key has a prefix starting with psk_unknownprefix/],
    [
      ['help', 'me'],
      2,
      /usage: npm run apikey -- create NAME .* \| list \| roll ID\|PREFIX .* \| scopes ID\|PREFIX --scopes LIST \| revoke ID\|PREFIX \| --help/,
    ],
    [
      ['rotate'],
      2,
      /usage: npm run apikey -- create NAME .* \| list \| roll ID\|PREFIX .* \| scopes ID\|PREFIX --scopes LIST \| revoke ID\|PREFIX \| --help/,
    ],
    [[], 2, /usage:/],
  ])('answers %p with exit code %p and one clear line', async (args, code, message) => {
    const result = await cli(...args);
    expect(result.code).toBe(code);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });
});

describe('the API-key tool without a database', () => {
  it('says in one line that it cannot reach the database, with exit code 1', async () => {
    const result = await runApiKeyCli(['list'], { DATABASE_URL: 'mysql://petstore:hunter2@127.0.0.1:1/petstore' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^apikey: cannot use the database: .*ECONNREFUSED.*\n$/);
    expect(result.stderr).not.toContain('hunter2');
  });

  it('refuses a bad configuration in one line, with exit code 2', async () => {
    const result = await runApiKeyCli(['list'], { DATABASE_URL: 'redis://x' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^apikey: invalid configuration: DATABASE_URL must start with/);
  });
});

describe('the API-key tool, asked for help', () => {
  it.each([['--help'], ['-h'], ['help']])('prints its commands for %p on stdout with exit code 0, without a database', async (flag) => {
    const result = await runApiKeyCli([flag], { DATABASE_URL: 'mysql://nobody@127.0.0.1:1/none' });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      /^usage: npm run apikey -- create NAME .* \| list \| roll ID\|PREFIX .* \| scopes ID\|PREFIX --scopes LIST \| revoke ID\|PREFIX \| --help\n/,
    );
    for (const command of ['create NAME', 'list', 'roll ID|PREFIX', 'scopes ID|PREFIX', 'revoke ID|PREFIX'])
      expect(result.stdout).toContain(`  ${command}`);
  });

  it('names every scope a key can hold under --scopes, and that a key made without it holds them all', async () => {
    const { stdout } = await runApiKeyCli(['--help'], { DATABASE_URL: '' });
    const option = stdout.slice(stdout.indexOf('    --scopes LIST'), stdout.indexOf('    --expires-in D')).replace(/\s+/g, ' ');
    expect(option.match(/\b[a-z]+:[a-z]+\b/g)).toEqual([...SCOPES]);
    expect(option).toContain('Without --scopes the key holds them all.');
  });
});

describe('npm run apikey', () => {
  it('runs the built tool as it is, without building it again', async () => {
    const built = statSync(APIKEY_SCRIPT).mtimeMs;
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'apikey', '--', '--help'], {
      env: { ...process.env, DATABASE_URL: '' },
    });
    expect(stdout).toMatch(/^usage: npm run apikey -- /);
    expect(statSync(APIKEY_SCRIPT).mtimeMs).toBe(built);
  });
});
