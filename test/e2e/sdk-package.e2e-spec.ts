import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import ts from 'typescript';
import { PetStore } from '../../clients/typescript/src/index.js';
import { freePort } from './support/free-port.js';
import { compileIn, newcomerProject, packSdk, readmeTsconfig, typeScriptBlocks } from './support/sdk-project.js';
import { startApp, TEST_API_KEY } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import * as expected from '../support/resources.js';

const run = promisify(execFile);
const manifest = JSON.parse(await readFile('clients/typescript/package.json', 'utf8')) as { version: string };

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

/** The SDK README's program of a call's own options, the whole answer and the log, as it stands there. */
async function readmePerCallProgram(): Promise<string> {
  const readme = await readFile('clients/typescript/README.md', 'utf8');
  return /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Per call, the whole answer, the log')))![1];
}

/** The SDK README's program of the lifecycle: changes held to an ETag, and what did not change. */
async function readmeLifecycleProgram(): Promise<string> {
  const readme = await readFile('clients/typescript/README.md', 'utf8');
  return /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Changes held to what you saw')))![1];
}

/** The SDK README's program of the request log, as it stands there. */
async function readmeRequestLogProgram(): Promise<string> {
  const readme = await readFile('clients/typescript/README.md', 'utf8');
  return /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## The request log')))![1];
}

/** The SDK README's program of metadata, as it stands there. */
async function readmeMetadataProgram(): Promise<string> {
  const readme = await readFile('clients/typescript/README.md', 'utf8');
  return /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Metadata: your own references')))![1];
}

/** Compiled under --strict against the installed package: `@ts-expect-error` fails the build where no error is. */
const ERROR_NARROWING = `
import {
  ConflictError, ConnectionError, NOT_MODIFIED, NotFoundError, PetStore, PetStoreError, PreconditionFailedError, RateLimitError,
  ServiceUnavailableError, TimeoutError, type ErrorCode, type NotModified, type Order, type OrderAnswer, type Page, type Pet,
  type PetAnswer,
} from '@petstore/client';

export function narrow(error: unknown): void {
  if (error instanceof NotFoundError) {
    const status: 404 = error.status;
    const code:
      | 'PET_NOT_FOUND'
      | 'ORDER_NOT_FOUND'
      | 'WEBHOOK_ENDPOINT_NOT_FOUND'
      | 'EVENT_NOT_FOUND'
      | 'REQUEST_NOT_FOUND'
      | 'REQUEST_LOG_DISABLED'
      | 'SANDBOX_NOT_FOUND'
      | 'ROUTE_NOT_FOUND'
      | undefined = error.code;
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
  if (error instanceof ConflictError) {
    const code: 'IDEMPOTENCY_KEY_IN_USE' | 'INVALID_TRANSITION' | 'PET_NOT_AVAILABLE' | 'PET_HAS_OPEN_ORDER' | 'PET_HAS_ORDERS' | 'SANDBOX_LIMIT_REACHED' | undefined =
      error.code;
    console.log(code);
  }
  if (error instanceof PreconditionFailedError) {
    const status: 412 = error.status;
    const code: 'PRECONDITION_FAILED' | undefined = error.code;
    const current: string | undefined = error.currentEtag;
    console.log(status, code, current);
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

/** NOT_MODIFIED is in a result's type only when ifNoneMatch was given. */
export async function conditional(petstore: PetStore, held: Order): Promise<void> {
  const order = await petstore.store.orders.get(held.id);
  const plain: Order = order;
  const etag: string | undefined = order._etag;
  const maybe = await petstore.store.orders.get(held.id, { ifNoneMatch: etag });
  // @ts-expect-error NOT_MODIFIED may be answered
  const notNarrowed: Order = maybe;
  if (maybe !== NOT_MODIFIED) console.log(maybe.status, notNarrowed, plain);
  const pet: Pet | NotModified = await petstore.pets.list({}, { ifNoneMatch: etag }).then((page) => (page === NOT_MODIFIED ? page : page.data[0]));
  const page: Page<Pet> = await petstore.pets.list({ limit: 1 });
  // @ts-expect-error a conditional listing answers one page, not every pet
  for await (const each of petstore.pets.list({}, { ifNoneMatch: page._etag })) console.log(each);
  console.log(pet, page);
}

/** What a call answers is typed by name, with its _etag and _request_id; a Pet or an Order has the API's fields alone. */
export async function answers(petstore: PetStore, held: Order): Promise<void> {
  const pet: PetAnswer = await petstore.pets.create({ name: 'Typed', categoryId: 1 });
  const order: OrderAnswer = await petstore.store.orders.get(held.id);
  const cancelled: OrderAnswer = await petstore.store.orders.cancel(order.id, { ifMatch: order._etag });
  const read: PetAnswer | NotModified = await petstore.pets.get(pet.id, { ifNoneMatch: pet._etag });
  const tags: (string | undefined)[] = [pet._request_id, cancelled._etag, cancelled._request_id, read === NOT_MODIFIED ? undefined : read._etag];
  // @ts-expect-error an Order has the API's fields alone
  console.log(tags, held._etag);
}

/** Metadata is typed: strings in answers, creates and filters; null, a key's or the whole's, in a patch alone. */
export async function metadata(petstore: PetStore, held: Order): Promise<void> {
  const pet = await petstore.pets.create({ name: 'Tagged', categoryId: 1, metadata: { erp_id: 'A-17' } });
  const references: Record<string, string> = pet.metadata;
  const fromOrder: Record<string, string> = held.metadata;
  // @ts-expect-error a value is a string
  await petstore.pets.create({ name: 'Tagged', categoryId: 1, metadata: { erp_id: 17 } });
  // @ts-expect-error null removes a key in a patch alone
  await petstore.store.orders.create({ petId: pet.id, quantity: 1, metadata: { erp_id: null } });
  const merged: Record<string, string> = (await petstore.pets.update(pet.id, { metadata: { erp_id: null, shelf: 'B2' } })).metadata;
  await petstore.store.orders.update(held.id, { metadata: null });
  for await (const found of petstore.pets.list({ status: 'available', metadata: { erp_id: 'A-17' } })) console.log(found.metadata.erp_id);
  // @ts-expect-error a filter's value is a string
  await petstore.store.orders.list({ metadata: { erp_id: null } });
  // @ts-expect-error an answer's metadata is never null: {} when none
  const cleared: null = (await petstore.store.orders.get(held.id)).metadata;
  console.log(references, fromOrder, merged, cleared);
}
`;

/** A program of a CommonJS project (its package.json has no "type": "module"): TypeScript compiles its import to require(). */
const COMMONJS_PROGRAM = `
import { NOT_MODIFIED, NotFoundError, PetStore } from '@petstore/client';

async function main(): Promise<void> {
  const petstore = new PetStore();
  const pet = await petstore.pets.create({ name: 'Required', categoryId: 2 });
  try {
    await petstore.store.orders.get(987654321);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    console.log(\`\${pet.name} \${error.code} from \${require.resolve('@petstore/client')}\`);
  }
  // The ES modules, imported beside the CommonJS build, are other classes (and other types), but the same NOT_MODIFIED.
  const esm: { NOT_MODIFIED: unknown; PetStore: unknown } = await import('@petstore/client');
  console.log(\`one NOT_MODIFIED: \${esm.NOT_MODIFIED === NOT_MODIFIED && esm.PetStore !== PetStore}\`);
}

void main();
`;

/** The documents an integrator reads, whose TypeScript blocks are programs unless marked as fragments. */
async function documents(): Promise<string[]> {
  const docs = (await readdir('docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`);
  return ['README.md', ...docs.sort(), 'clients/typescript/README.md'];
}

/** A TypeScript program of the docs, where the one tsc run of the suite put it (its folder, holding index.ts and index.js). */
interface Program {
  file: string;
  line: number;
  code: string;
  folder: string;
}

/**
 * The SDK as an integrator gets it, following the README: `npm pack` in clients/typescript, then an
 * empty ES-module project with what the README's `npm install` line installs (the tarball, and
 * TypeScript and Node's types from the npm registry), where the README's tsconfig.json and the
 * project's own TypeScript compile the docs' programs, and the README's program and the SDK
 * README's receiver run against a started service. Nothing of this repository's node_modules is
 * lent to the project: it sees what a newcomer's would.
 *
 * Every program is compiled in one tsc run, with the README's compiler options: each tsc reads
 * Node's types and the SDK's again (about 3 s of processor time), and one per program made this
 * the slowest file of `npm test` (issue 57). In this ES-module project every file is a module of its
 * own, so one program's names never meet another's; the CommonJS program's folder has a
 * package.json of its own, which `nodenext` reads per file, as it would in a project of its own.
 */
describe('the TypeScript SDK package', () => {
  let directory: string;
  let tarball: string;
  let project: string;
  let database: TestDatabase;
  let app: NestExpressApplication;
  let receiver: ChildProcess | undefined;
  /** Every ```ts block of the docs that is a program (not marked `fragment`), as compiled. */
  let programs: Program[];
  /** What the one tsc run said: 'compiled', or its errors. */
  let compiled: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-sdk-package-'));
    tarball = await packSdk(directory);
    project = await newcomerProject(join(directory, 'your-project'), tarball);
    database = await createTestDatabase('sqlite');
    // Deliveries to the README's receiver on 127.0.0.1, over http.
    app = await startApp(database, { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });

    const tsconfig = await readmeTsconfig();
    // Named by where each program stands in the docs, so that tsc's errors say it.
    programs = (await typeScriptBlocks(await documents()))
      .filter(({ info }) => !info.includes('fragment'))
      .map(({ file, line, code }) => ({ file, line, code, folder: join(project, `${file.replaceAll('/', '-')}-line-${line}`) }));
    const own = [
      { folder: join(project, 'narrowing'), code: ERROR_NARROWING },
      { folder: join(project, 'commonjs'), code: COMMONJS_PROGRAM },
    ];
    for (const { folder, code } of [...programs, ...own]) {
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, 'index.ts'), code);
    }
    await writeFile(
      join(project, 'commonjs/package.json'),
      JSON.stringify({ name: 'a-commonjs-project', private: true, type: 'commonjs' }),
    );
    const files = [...programs, ...own].map(({ folder }) => join(folder.slice(project.length + 1), 'index.ts'));
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ ...JSON.parse(tsconfig), files }));
    compiled = await compileIn(project, project).then(
      () => 'compiled',
      (error: Error) => error.message,
    );
  }, 120_000);
  afterAll(async () => {
    receiver?.kill();
    await app?.close();
    await database?.drop();
    await rm(directory, { recursive: true, force: true });
  });

  /** The folder of the compiled program whose code is `code` (a README's, read by its section); fails the test if the run did not compile. */
  function compiledProgram(code: string): string {
    expect(compiled).toBe('compiled');
    const program = programs.find((candidate) => candidate.code === code);
    if (!program) throw new Error(`no program of the docs is:\n${code}`);
    return program.folder;
  }

  /** Runs a compiled program against the service with the key: what it printed. */
  function runProgram(folder: string) {
    const { port } = app.getHttpServer().address() as AddressInfo;
    return run(process.execPath, ['index.js'], {
      cwd: folder,
      env: { ...process.env, PETSTORE_API_KEY: TEST_API_KEY, PETSTORE_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
  }

  /**
   * A ```ts (or ```typescript) block in the README, docs/ or the SDK's README is a whole program an
   * integrator may save as index.ts and compile, unless its fence says `fragment` (```ts fragment):
   * a piece that needs more than the README's setup (INTEGRATING.md's generated clients, whose
   * programs generated-clients.e2e-spec.ts compiles and runs). Each program is an index.ts in a
   * folder of its own, compiled with the README's compiler options by the project's TypeScript,
   * against the packed SDK; with them, under `--strict` too (the README's setup says it), the
   * program whose `@ts-expect-error`s say how each error class narrows status and code (one that
   * finds no error fails the build), and a CommonJS project's.
   */
  it('compiles every TypeScript program of the docs with the setup the README gives', async () => {
    expect(programs.map(({ file }) => file)).toEqual(expect.arrayContaining(['README.md', 'clients/typescript/README.md']));
    // The SDK's README, shipped in the package, gives the same setup, and it is strict.
    const tsconfig = await readmeTsconfig();
    expect(/```json\n([\s\S]*?)```/.exec(await readFile('clients/typescript/README.md', 'utf8'))?.[1]).toBe(tsconfig);
    expect(JSON.parse(tsconfig).compilerOptions.strict).toBe(true);
    expect(compiled).toBe('compiled');
  });

  it('packs, installs as the README says with no dependency of its own, and runs the README program as compiled with its setup', async () => {
    expect(basename(tarball)).toBe(`petstore-client-${manifest.version}.tgz`);
    const installed = JSON.parse(await readFile(join(project, 'node_modules/@petstore/client/package.json'), 'utf8'));
    expect(installed.dependencies ?? {}).toEqual({});

    const { stdout } = await runProgram(compiledProgram(await readmeProgram()));
    expect(stdout).toMatch(/^added Rex as pet (\d+)\n\1 Rex\n/);
    expect(stdout).toMatch(/^0 orders on the first page; more: false$/m);
    expect(stdout).toMatch(/^order \d+ is placed$/m);
    expect(stdout).toMatch(/^ORDER_NOT_FOUND: No order has id 987654321\. \(request [0-9a-f-]{36}\)$/m);
  }, 60_000);

  it('runs the SDK README’s receiver as compiled with the README’s setup: it hears of a pet added', async () => {
    const folder = compiledProgram(await readmeReceiver());
    const { port } = app.getHttpServer().address() as AddressInfo;
    const receiverPort = await freePort();
    const sdk = new PetStore({ apiKey: TEST_API_KEY, baseUrl: `http://127.0.0.1:${port}/v1` });
    const endpoint = await sdk.webhookEndpoints.create({ url: `http://127.0.0.1:${receiverPort}/petstore`, events: ['*'] });
    receiver = spawn(process.execPath, ['index.js'], {
      cwd: folder,
      env: { ...process.env, PORT: String(receiverPort), PETSTORE_WEBHOOK_SECRET: endpoint.secret },
    });
    let heard = '';
    receiver.stdout!.on('data', (chunk: Buffer) => (heard += chunk.toString()));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const pet = await sdk.pets.create({ name: 'Heard', categoryId: 1 });
    for (let waited = 0; !heard.includes('\n') && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toBe(`new pet ${pet.id} Heard\n`);
  }, 60_000);

  it('runs the SDK README’s program of per-call options, whole answers and the log, as written', async () => {
    const folder = compiledProgram(await readmePerCallProgram());
    const { port } = app.getHttpServer().address() as AddressInfo;
    const { stdout, stderr } = await runProgram(folder);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('first page: request readme-listing');
    const [, id] = new RegExp(`^201 http://127\\.0\\.0\\.1:${port}/v1/pets/(\\d+) replayed: no$`).exec(lines[1]) ?? [];
    expect(id).toBeDefined();
    const [name, sameId, json] = lines[2].split(' ');
    expect([name, sameId, JSON.parse(json)]).toEqual(['Rex', 'true', expected.pet({ id: Number(id), name: 'Rex', categoryId: 3 })]);
    expect(lines[3]).toBe('cancelled');
    expect(lines.slice(4).join('\n')).toMatch(/^\{ available: \d+, pending: \d+, sold: \d+ \}\n$/);
    expect(stderr).toMatch(/ petstore INFO GET \/pets\?limit=5: 200 in \d+ ms, request readme-listing \(attempt 1 of 1\)\n/);
    expect(stderr).toMatch(/ petstore INFO GET \/store\/inventory: cancelled after \d+ ms \(attempt 1 of 3\)\n/);
    expect(stderr).not.toContain(TEST_API_KEY);

    const again = await runProgram(folder);
    expect(again.stdout.split('\n')[1]).toBe(`201 http://127.0.0.1:${port}/v1/pets/${id} replayed: true`);
  }, 60_000);

  it('runs the SDK README’s program of the lifecycle, as written: changes held to an ETag, NOT_MODIFIED, the final moves refused', async () => {
    const { stdout } = await runProgram(compiledProgram(await readmeLifecycleProgram()));
    expect(stdout.split('\n')).toEqual([
      expect.stringMatching(/^order \d+ is approved$/),
      'PRECONDITION_FAILED: it changed; current ETag known',
      'not modified',
      'no pending pet changed',
      'cancelled true',
      'INVALID_TRANSITION',
      'PET_HAS_ORDERS',
      'Rex II available',
      'Tom deleted',
      '',
    ]);
  }, 60_000);

  it('runs the SDK README’s program of metadata, as written: set, merged, filtered by, removed', async () => {
    const { stdout } = await runProgram(compiledProgram(await readmeMetadataProgram()));
    expect(stdout.split('\n')).toEqual(['{"shelf":"B2"} true', '{"kennel":"K7"}', 'found order true', '{}', '']);
  }, 60_000);

  it('runs the SDK README’s program of the request log, as written: a failed call found by its error’s requestId, the refused creates', async () => {
    const { stdout } = await runProgram(compiledProgram(await readmeRequestLogProgram()));
    const [found, ...refused] = stdout.trimEnd().split('\n');
    expect(found).toBe('true POST /v1/pets createPet 400 VALIDATION_FAILED');
    // Newest first: the program's own refusal, then any other test's here (a reused Idempotency-Key's 422, say).
    expect(refused[0]).toMatch(/ 400 VALIDATION_FAILED$/);
    for (const line of refused) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z 4\d\d [A-Z_]+$/);
  }, 60_000);

  it('is required by a CommonJS project: its CommonJS build and types, compiled under node16 resolution and run', async () => {
    expect(compiled).toBe('compiled');
    const folder = join(project, 'commonjs');
    expect(await readFile(join(folder, 'index.js'), 'utf8')).toContain('require("@petstore/client")');
    const { stdout } = await runProgram(folder);
    expect(stdout).toBe(
      `Required ORDER_NOT_FOUND from ${join(project, 'node_modules/@petstore/client/dist/cjs/index.js')}\none NOT_MODIFIED: true\n`,
    );
  }, 60_000);

  it('marks the deprecated getPet for the editor: TypeScript’s language service strikes it through and says why', async () => {
    const folder = join(project, 'editor');
    await mkdir(folder);
    const file = join(folder, 'index.ts');
    const program =
      "import { PetStore } from '@petstore/client';\n\nconst petstore = new PetStore();\nawait petstore.pets.get(1);\nawait petstore.pets.list();\n";
    await writeFile(file, program);
    const { options } = ts.convertCompilerOptionsFromJson(JSON.parse(await readmeTsconfig()).compilerOptions, folder);
    // What an editor asks of tsserver: the files, and the compiler options of their tsconfig.json.
    const editor = ts.createLanguageService({
      getScriptFileNames: () => [file],
      getScriptVersion: () => '1',
      getScriptSnapshot: (name) => (ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(name)!) : undefined),
      getCurrentDirectory: () => folder,
      getCompilationSettings: () => options,
      getDefaultLibFileName: ts.getDefaultLibFilePath,
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    });
    expect(editor.getSemanticDiagnostics(file).map(({ messageText }) => ts.flattenDiagnosticMessageText(messageText, '\n'))).toEqual([]);
    const struck = editor.getSuggestionDiagnostics(file).filter(({ reportsDeprecated }) => reportsDeprecated);
    expect(struck.map(({ start }) => program.slice(start, start! + 3))).toEqual(['get']);
    const hover = editor.getQuickInfoAtPosition(file, program.indexOf('get(1)'));
    expect(
      hover?.tags
        ?.find(({ name }) => name === 'deprecated')
        ?.text?.map(({ text }) => text)
        .join(''),
    ).toContain('5 December 2030');
  }, 60_000);
});
