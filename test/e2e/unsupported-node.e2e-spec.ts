import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

const run = promisify(execFile);

interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` to its end, whatever its exit; npm's own warnings about this machine's config are left out. */
async function outcomeOf(command: string, args: string[], env: Record<string, string>, cwd = process.cwd()): Promise<Outcome> {
  // Killed outright after 30 s: a regression must fail the test, not leave a service running.
  const options = { cwd, env: { ...process.env, ...env }, timeout: 30_000, killSignal: 'SIGKILL' as const, maxBuffer: 16 * 1024 * 1024 };
  const result = await run(command, args, options).then(
    ({ stdout, stderr }) => ({ code: 0, signal: null, stdout, stderr }),
    (error: { code?: number; signal?: NodeJS.Signals; stdout?: string; stderr?: string }) => ({
      code: typeof error.code === 'number' ? error.code : null,
      signal: error.signal ?? null,
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  );
  return { ...result, stderr: result.stderr.replace(/^npm warn Unknown (user|env) config "nodedir".*\n/gm, '') };
}

/**
 * Node 20 (past its end of life, and what our machines carry) in a fresh shell, without
 * scripts/use-node.sh: every entry point refuses it in one line naming the running and the
 * supported versions and the way out, instead of a bare "Segmentation fault" (better-sqlite3), and
 * `npm ci` stops before installing anything.
 */
describe('an unsupported Node', () => {
  let node20: string;
  beforeAll(async () => {
    // Node 20 from the npm registry, as scripts/use-node.sh fetches any line (once, into .node/20).
    const { stdout } = await run('bash', ['-c', '. scripts/use-node.sh 20 >/dev/null && command -v node'], { timeout: 300_000 });
    node20 = stdout.trim();
    expect((await run(node20, ['--version'])).stdout).toMatch(/^v20\./);
  }, 300_000);

  /** The line every entry point gives, and nothing more. */
  const expectRefusal = (outcome: Outcome) => {
    expect({ code: outcome.code, signal: outcome.signal, stdout: outcome.stdout }).toEqual({ code: 1, signal: null, stdout: '' });
    expect(outcome.stderr).toMatch(
      /^petstore: Node 20\.\d+\.\d+ is not supported \(\^22\.22\.3 \|\| \^24\.15\.0 \|\| \^26\.0\.0\); in a checkout, `\. scripts\/use-node\.sh` puts a supported Node \(24\) first on PATH\n$/,
    );
  };

  describe.each(DATABASE_KINDS)('on %s', (kind) => {
    let database: TestDatabase;
    beforeAll(async () => (database = await createTestDatabase(kind)));
    afterAll(async () => database?.drop());

    it.each([
      ['the service', ['dist/src/main.js']],
      ['the API-key tool', ['dist/src/cli/apikey.js', 'list']],
      ['the migrations (TypeORM CLI)', ['node_modules/typeorm/cli.js', 'migration:run', '-d', 'dist/ormconfig.js']],
    ])('%s is refused in one line with exit code 1', async (_, args) => {
      expectRefusal(await outcomeOf(node20, args, { DATABASE_URL: database.url, API_KEYS: 'node-20-key', PORT: '0' }));
    });
  });

  it('the document tool is refused in one line with exit code 1', async () => {
    expectRefusal(await outcomeOf(node20, ['dist/src/cli/openapi.js', '--out', join(tmpdir(), 'never-written.json')], {}));
  });

  it('npm ci stops before installing anything, saying which engine it needs', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'petstore-node20-'));
    try {
      for (const file of ['package.json', 'package-lock.json', '.npmrc']) await copyFile(resolve(file), join(directory, file));
      const npm = await outcomeOf('npm', ['ci', '--no-audit', '--no-fund'], { PATH: `${dirname(node20)}:${process.env.PATH}` }, directory);
      expect(npm.code).toBe(1);
      expect(npm.stderr).toMatch(/npm error code EBADENGINE/);
      expect(npm.stderr).toMatch(/Required: \{"node":"\^22\.22\.3 \|\| \^24\.15\.0 \|\| \^26\.0\.0"\}/);
      expect(npm.stderr).toMatch(/Actual: +\{"node":"v20\./);
      await expect(run('test', ['-e', join(directory, 'node_modules')])).rejects.toThrow();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('scripts/use-node.sh', () => {
  it('points native builds at the headers of the Node it puts first, and npm warns of nothing after it', async () => {
    // A HOME without an .npmrc and none of the npm_config_* variables `npm test` hands its scripts
    // (they carry the machine's user config, e.g. its nodedir): the machine's config is not the
    // script's to answer for.
    const home = await mkdtemp(join(tmpdir(), 'petstore-home-'));
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
    try {
      const script = '. scripts/use-node.sh 24 >/dev/null && npm pkg get name && echo "$npm_package_config_node_gyp_nodedir"';
      // npm's notice that a newer npm exists (asked of the registry from a fresh HOME) is no warning about this project.
      const quiet = { npm_config_update_notifier: 'false' };
      const { stdout, stderr } = await run('bash', ['-c', script], { env: { ...env, ...quiet, HOME: home }, timeout: 300_000 });
      const [name, nodedir] = stdout.trim().split('\n');
      expect({ name, stderr }).toEqual({ name: '"petstore"', stderr: '' });
      await expect(run('test', ['-f', join(nodedir ?? '', 'include/node/node.h')])).resolves.toBeDefined();
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 300_000);
});
