import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { ApiKeyIssuer } from '../../src/auth/api-key-issuer.js';
import { integratorEnvironment } from './support/sdk-project.js';
import { AUTH, startApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const run = promisify(execFile);
const SAMPLE = 'clients/typescript/examples/jest';

/**
 * docs/TESTING.md's sample Jest suite, run as an integrator's CI runs it (`npm test` in its project,
 * with this repository's Jest, ts-jest and TypeScript installed there, and the SDK built as its
 * package ships), with a live key that holds only the sandboxes' scopes: it makes its sandbox,
 * passes in it, and deletes it. On SQLite alone: what it checks is the sample and the SDK, which
 * sdk-sandboxes.e2e-spec.ts runs on both databases.
 */
describe('the sample Jest suite of docs/TESTING.md', () => {
  let database: TestDatabase;
  let app: NestExpressApplication;
  let work: string;
  let project: string;
  let baseUrl: string;
  let ciKey: string;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await startApp(database, { RATE_LIMIT_PER_MINUTE: '0' });
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/v1`;
    ciKey = (await app.get(ApiKeyIssuer).create('ci', { scopes: ['sandboxes:read', 'sandboxes:write'] })).key;

    work = await mkdtemp(join(tmpdir(), 'petstore-sample-jest-'));
    // The SDK as its package has it: ES modules and declarations in dist/, beside its package.json.
    const sdk = join(work, 'petstore-client');
    await mkdir(sdk);
    await cp('clients/typescript/package.json', join(sdk, 'package.json'));
    const tsc = resolve('node_modules/typescript/bin/tsc');
    await run(process.execPath, [tsc, '-p', 'clients/typescript/tsconfig.json', '--outDir', join(sdk, 'dist')]);
    // The integrator's project: the sample, and a node_modules of this repository's packages with the SDK among them.
    project = join(work, 'project');
    await cp(SAMPLE, project, { recursive: true });
    const modules = join(project, 'node_modules');
    await mkdir(join(modules, '@petstore'), { recursive: true });
    for (const entry of await readdir('node_modules')) await symlink(resolve('node_modules', entry), join(modules, entry));
    await symlink(sdk, join(modules, '@petstore', 'client'));
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await database?.drop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** `npm test` in the project as CI runs it: its own shell's environment, CI's key and the service's URL. */
  const npmTest = () =>
    run('npm', ['test'], {
      cwd: project,
      env: integratorEnvironment({ PETSTORE_CI_KEY: ciKey, PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: '' }),
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout}${error.stderr}` }),
    );
  const sandboxOf = (output: string) => /Pet Store sandbox (sbx_\S+) for this run/.exec(output)?.[1];
  const http = () => request(app.getHttpServer());

  it('compiles under its tsconfig.json', async () => {
    await expect(run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', project])).resolves.toBeDefined();
  });

  it('passes in a sandbox of its own, deleted at the end, and leaves live as it was', async () => {
    const { code, output } = await npmTest();
    expect({ code, output }).toEqual({ code: 0, output: expect.stringMatching(/Tests:\s+3 passed, 3 total/) });
    const id = sandboxOf(output);
    expect(id).toMatch(/^sbx_/);
    await http().get(`/v1/sandboxes/${id}`).set(AUTH).expect(404);
    expect((await http().get('/v1/pets').set(AUTH).expect(200)).body).toEqual([]);
  });

  it('deletes its sandbox when a test fails too', async () => {
    await writeFile(join(project, 'failing.test.ts'), "it('fails', () => { throw new Error('a failed test'); });\n");
    try {
      const { code, output } = await npmTest();
      expect(code).not.toBe(0);
      expect(output).toContain('a failed test');
      await http()
        .get(`/v1/sandboxes/${sandboxOf(output)}`)
        .set(AUTH)
        .expect(404);
    } finally {
      await rm(join(project, 'failing.test.ts'));
    }
  });
});
