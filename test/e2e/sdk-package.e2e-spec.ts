import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { startApp, TEST_API_KEY } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const run = promisify(execFile);
const TSC = resolve('node_modules/typescript/bin/tsc');

/** The tsconfig.json and the TypeScript program of the README's "Calling it from TypeScript", as they stand there. */
async function readmeProgram(): Promise<{ tsconfig: string; program: string }> {
  const readme = await readFile('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Calling it from TypeScript'));
  return { tsconfig: /```json\n([\s\S]*?)```/.exec(section)![1], program: /```ts\n([\s\S]*?)```/.exec(section)![1] };
}

/**
 * The SDK as an integrator gets it, following the README: `npm pack` in clients/typescript, the
 * tarball installed in an empty ES-module project, the README's program compiled there with
 * the README's tsconfig.json (strict) and run against a started service.
 */
describe('the TypeScript SDK package', () => {
  let directory: string;
  let database: TestDatabase;
  let app: NestExpressApplication;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-sdk-package-'));
    database = await createTestDatabase('sqlite');
    app = await startApp(database);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await rm(directory, { recursive: true, force: true });
  });

  it('packs, installs in an empty project with nothing else, compiles the README program under --strict, and runs it', async () => {
    await run('npm', ['pack', '--pack-destination', directory], { cwd: 'clients/typescript' });
    const [tarball] = (await readdir(directory)).filter((file) => file.endsWith('.tgz'));
    expect(tarball).toBe('petstore-client-1.1.0.tgz');

    const project = join(directory, 'your-project');
    await run('mkdir', [project]);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'your-project', private: true, type: 'module' }));
    // Offline: the package depends on nothing, so nothing is fetched.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(directory, tarball)], { cwd: project });
    const installed = JSON.parse(await readFile(join(project, 'node_modules/@petstore/client/package.json'), 'utf8'));
    expect(installed.dependencies ?? {}).toEqual({});

    const { tsconfig, program } = await readmeProgram();
    await writeFile(join(project, 'tsconfig.json'), tsconfig);
    await writeFile(join(project, 'index.ts'), program);
    await run(process.execPath, [TSC], { cwd: project });

    const { port } = app.getHttpServer().address() as AddressInfo;
    const { stdout } = await run(process.execPath, ['index.js'], {
      cwd: project,
      env: { ...process.env, PETSTORE_API_KEY: TEST_API_KEY, PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    expect(stdout).toMatch(/^added Rex as pet (\d+)\n\1 Rex\n/);
    expect(stdout).toMatch(/^0 orders on the first page; more: false$/m);
    expect(stdout).toMatch(/^order \d+ is placed$/m);
    expect(stdout).toMatch(/^ORDER_NOT_FOUND: No order has id 987654321\. \(request [0-9a-f-]{36}\)$/m);
  }, 120_000);
});
