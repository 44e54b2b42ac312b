/**
 * `npm run openapi` (after `nest build`): the document and everything generated from it, written
 * whole or not at all. Every step runs on a staging copy of the files the steps read and write; only
 * when each has succeeded are the files that changed moved into the checkout. (Run in place, a step
 * that failed left the files of the steps before it rewritten and the rest not: issue 57.) It also
 * refuses a document that differs from the released one of its version: that needs a new version.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { API_VERSION } from '../src/config/api-version.js';

const CHECKOUT = resolve(import.meta.dirname, '..');
/** What the steps read and write, relative to the checkout. */
const STAGED = ['openapi.json', 'contract', 'clients', 'package.json', 'package-lock.json'];
/** Under clients/: what is installed or built there, never generated. */
const NOT_STAGED = new Set(['node_modules', 'dist', 'build', '__pycache__', '.venv', '.mypy_cache', '.pytest_cache']);

const bin = (name: string) => join(CHECKOUT, 'node_modules', '.bin', name);

/** The steps, each with the staging folder as its working directory (the scripts write there). */
const steps = (staging: string): [string, string[]][] => [
  [process.execPath, [join(CHECKOUT, 'dist/src/cli/openapi.js'), '--out', join(staging, 'openapi.json')]],
  [bin('openapi-typescript'), ['openapi.json', '--output', 'clients/typescript/src/openapi.ts']],
  [bin('tsx'), [join(CHECKOUT, 'scripts/sdk-error-codes.ts')]],
  [bin('tsx'), [join(CHECKOUT, 'scripts/sdk-added-fields.ts')]],
  [bin('tsx'), [join(CHECKOUT, 'scripts/sdk-version.ts')]],
  ['python3', [join(CHECKOUT, 'clients/python/scripts/generate.py'), staging]],
];

async function* files(folder: string): AsyncGenerator<string> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (NOT_STAGED.has(entry.name) || entry.name.endsWith('.egg-info')) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

const staging = await mkdtemp(join(tmpdir(), 'petstore-openapi-'));
try {
  for (const path of STAGED) {
    await mkdir(dirname(join(staging, path)), { recursive: true });
    await cp(join(CHECKOUT, path), join(staging, path), {
      recursive: true,
      filter: (source) => !NOT_STAGED.has(source.slice(source.lastIndexOf('/') + 1)) && !source.endsWith('.egg-info'),
    });
  }
  for (const [command, args] of steps(staging)) {
    // A step's own lines say what it wrote in the staging copy, not in the checkout: shown only when it fails.
    try {
      execFileSync(command, args, { cwd: staging, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const said = String((error as { stderr?: Buffer }).stderr ?? '').trim();
      throw new Error(`${said ? `${said}\n` : ''}npm run openapi: ${relative(CHECKOUT, args[0] ?? command)} failed; nothing was written.`, {
        cause: error,
      });
    }
  }
  const released = join(CHECKOUT, `contract/openapi-${API_VERSION}.json`);
  if (existsSync(released) && (await readFile(released, 'utf8')) !== (await readFile(join(staging, 'openapi.json'), 'utf8'))) {
    throw new Error(
      `npm run openapi: the document differs from the released ${API_VERSION} (contract/openapi-${API_VERSION}.json), which ` +
        'is kept as it shipped. Set API_VERSION in src/config/api-version.ts to the next version (a patch for a fix, a minor ' +
        'for an addition: CHANGELOG.md), then run npm run openapi again; nothing was written.',
    );
  }
  const changed: string[] = [];
  for await (const path of files(staging)) {
    const target = join(CHECKOUT, relative(staging, path));
    if (existsSync(target) && (await readFile(target)).equals(await readFile(path))) continue;
    // A copy beside the target, then a rename: no file is ever half written.
    await mkdir(dirname(target), { recursive: true });
    await copyFile(path, `${target}.openapi-new`);
    await rename(`${target}.openapi-new`, target);
    changed.push(relative(CHECKOUT, target));
  }
  process.stderr.write(changed.length ? `npm run openapi: wrote ${changed.join(', ')}\n` : 'npm run openapi: nothing changed\n');
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await rm(staging, { recursive: true, force: true });
}
