import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runApiKeyCli } from './support/service-process.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

/**
 * Printed by the key tool's process at exit: every package it loaded, by import or require, as a
 * module hook of Node's sees them resolved (given by NODE_OPTIONS, so the tool runs as it ships).
 */
const RECORD_PACKAGES = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const name = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(resolved.url)?.[1];
    if (name) loaded.add(name);
    return resolved;
  },
});
process.on('exit', () => process.stderr.write('packages loaded: ' + JSON.stringify([...loaded]) + '\\n'));
`;

/** The packages `apikey ARGS` loads with DATABASE_URL `url`, and its exit code. */
async function packagesOf(url: string, args: string[]): Promise<{ code: number | null; packages: string[] }> {
  const env = { DATABASE_URL: url, NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(RECORD_PACKAGES)}` };
  const { code, stderr } = await runApiKeyCli(args, env);
  const line = /^packages loaded: (.*)$/m.exec(stderr);
  if (!line) throw new Error(`the key tool printed no packages:\n${stderr}`);
  return { code, packages: JSON.parse(line[1]) };
}

/**
 * The key tool starts in 0.3 s of processor time because it loads only what its
 * command needs (tests run it hundreds of times, operators in scripts): not Nest's core, not
 * class-validator (it checks names and dates with the rules alone), mysql2 only for a MySQL
 * database and ioredis only when REDIS_URL names a Redis.
 */
describe.each(DATABASE_KINDS)('the key tool on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('loads the database driver it uses and none of the packages it does not need', async () => {
    const { code, packages } = await packagesOf(database.url, ['list']);
    expect(code).toBe(0);
    expect(packages).toContain(kind === 'mysql' ? 'mysql2' : 'better-sqlite3');
    const unneeded = ['@nestjs/core', 'class-validator', 'ioredis', ...(kind === 'mysql' ? [] : ['mysql2'])];
    expect(packages.filter((name) => unneeded.includes(name))).toEqual([]);
  });
});
