import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { PetStore } from '../../clients/typescript/src/index.js';
import { freePort } from './support/free-port.js';
import { packSdk, readmeTsconfig } from './support/sdk-project.js';
import { startApp, TEST_API_KEY } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const run = promisify(execFile);
const manifest = JSON.parse(await readFile('clients/typescript/package.json', 'utf8')) as { version: string };
const TSC = resolve('node_modules/typescript/bin/tsc');

/** The TypeScript program of the README's "Call it from TypeScript", as it stands there. */
async function readmeProgram(): Promise<string> {
  const readme = await readFile('README.md', 'utf8');
  return /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Call it from TypeScript')))![1];
}

/** The receiver of the SDK's README ("Receiving webhooks"), as it stands there. */
async function readmeReceiver(): Promise<string> {
  const readme = await readFile('clients/typescript/README.md', 'utf8');
  return /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Receiving webhooks')))![1];
}

/** Compiled under --strict against the installed package: `@ts-expect-error` fails the build where no error is. */
const ERROR_NARROWING = `
import {
  ConnectionError, NotFoundError, PetStoreError, RateLimitError, ServiceUnavailableError, TimeoutError, type ErrorCode,
} from '@petstore/client';

export function narrow(error: unknown): void {
  if (error instanceof NotFoundError) {
    const status: 404 = error.status;
    const code: 'PET_NOT_FOUND' | 'ORDER_NOT_FOUND' | 'WEBHOOK_ENDPOINT_NOT_FOUND' | 'EVENT_NOT_FOUND' | 'ROUTE_NOT_FOUND' | undefined = error.code;
    // @ts-expect-error a 404 never carries RATE_LIMITED
    const other: 'RATE_LIMITED' | undefined = error.code;
    console.log(status, code, other);
  }
  if (error instanceof RateLimitError) {
    const status: 429 = error.status;
    const code: 'RATE_LIMITED' | undefined = error.code;
    console.log(status, code, error.retryAfter);
  }
  if (error instanceof ServiceUnavailableError) {
    const status: 502 | 503 | 504 = error.status;
    const code: 'SERVICE_UNAVAILABLE' | undefined = error.code;
    // @ts-expect-error 502 | 503 | 504 is wider than 503
    const only503: 503 = error.status;
    console.log(status, code, only503);
  }
  if (error instanceof ConnectionError) {
    const status: undefined = error.status;
    // @ts-expect-error no answer came, so there is no status
    const number: number = error.status;
    console.log(status, number);
  }
  if (error instanceof TimeoutError) {
    const status: undefined = error.status;
    console.log(status);
  }
  if (error instanceof PetStoreError) {
    // The base class keeps the wide types.
    const status: number | undefined = error.status;
    const code: ErrorCode | undefined = error.code;
    // @ts-expect-error any status at all
    const notFound: 404 = error.status;
    console.log(status, code, notFound);
  }
}
`;

/**
 * The SDK as an integrator gets it, following the README: `npm pack` in clients/typescript, the
 * tarball installed in an empty ES-module project, the README's program compiled there with
 * the README's tsconfig.json (strict) and run against a started service.
 */
describe('the TypeScript SDK package', () => {
  let directory: string;
  let database: TestDatabase;
  let app: NestExpressApplication;
  let receiver: ChildProcess | undefined;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-sdk-package-'));
    database = await createTestDatabase('sqlite');
    // Deliveries to the README's receiver on 127.0.0.1, over http.
    app = await startApp(database, { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
  });
  afterAll(async () => {
    receiver?.kill();
    await app?.close();
    await database?.drop();
    await rm(directory, { recursive: true, force: true });
  });

  it('packs, installs in an empty project with nothing else, compiles the README program under --strict, and runs it', async () => {
    const tarball = await packSdk(directory);
    expect(basename(tarball)).toBe(`petstore-client-${manifest.version}.tgz`);

    const project = join(directory, 'your-project');
    await run('mkdir', [project]);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'your-project', private: true, type: 'module' }));
    // Offline: the package depends on nothing, so nothing is fetched.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project });
    const installed = JSON.parse(await readFile(join(project, 'node_modules/@petstore/client/package.json'), 'utf8'));
    expect(installed.dependencies ?? {}).toEqual({});

    const [tsconfig, program] = [await readmeTsconfig(), await readmeProgram()];
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

    // Each error class narrows status and code: what compiles, and (@ts-expect-error) what must not.
    await writeFile(join(project, 'narrowing.ts'), ERROR_NARROWING);
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ ...JSON.parse(tsconfig), files: ['narrowing.ts'] }));
    await run(process.execPath, [TSC, '--strict', '--noEmit'], { cwd: project });

    // The README's receiver, compiled under --strict (with Node's types) and run: it hears of a pet added.
    await writeFile(join(project, 'receiver.ts'), await readmeReceiver());
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ ...JSON.parse(tsconfig), files: ['receiver.ts'] }));
    await run(process.execPath, [TSC, '--typeRoots', resolve('node_modules/@types'), '--types', 'node'], { cwd: project });
    const receiverPort = await freePort();
    const sdk = new PetStore({ apiKey: TEST_API_KEY, baseUrl: `http://127.0.0.1:${port}/v1` });
    const endpoint = await sdk.webhookEndpoints.create({ url: `http://127.0.0.1:${receiverPort}/petstore`, events: ['*'] });
    receiver = spawn(process.execPath, ['receiver.js'], {
      cwd: project,
      env: { ...process.env, PORT: String(receiverPort), PETSTORE_WEBHOOK_SECRET: endpoint.secret },
    });
    let heard = '';
    receiver.stdout!.on('data', (chunk: Buffer) => (heard += chunk.toString()));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pet = await sdk.pets.create({ name: 'Heard', categoryId: 1 });
    for (let waited = 0; !heard.includes('\n') && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toBe(`new pet ${pet.id} Heard\n`);
  }, 120_000);
});
