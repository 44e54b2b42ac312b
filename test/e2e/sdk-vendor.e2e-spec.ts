import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { compileIn, integratorEnvironment, readmeTsconfig, runDocumented, shellBlocks } from './support/sdk-project.js';
import { ServiceProcess, sqliteServiceIn } from './support/service-process.js';
import * as expected from '../support/resources.js';

const run = promisify(execFile);
const { version } = JSON.parse(await readFile('clients/typescript/package.json', 'utf8')) as { version: string };
const API_KEY = 'vendor-e2e-key';
const SECTION = '## The SDKs in your own repository';

/** Calls the service with the SDK installed from vendor/: a pet made, and found again in the listing. */
const TYPESCRIPT_PROGRAM = `
import { PetStore, type PetAnswer } from '@petstore/client';

const petstore = new PetStore();
const created: PetAnswer = await petstore.pets.create({ name: 'Vendored', categoryId: 4 });
const listed = (await petstore.pets.list({ limit: 100 })).data.find((pet) => pet.id === created.id);
console.log(JSON.stringify({ created, listed, etag: created._etag }));
`;

/** The same in Python, saying where the package it imported is installed. */
const PYTHON_PROGRAM = `
import json

import petstore as package
from petstore import PetStore

with PetStore() as petstore:
    created = petstore.pets.create(name="Vendored", category_id=4)
    listed = next(pet for pet in petstore.pets.list() if pet.id == created.id)
    print(json.dumps({"created": created.to_wire(), "listed": listed.to_wire(), "etag": created._etag, "from": package.__file__}))
`;

/**
 * The SDKs as an integrator keeps them in their own repository, by docs/INTEGRATING.md's two blocks
 * run as written: the packages made from a checkout of the service beside the project
 * (`../petstore`, here a copy of clients/ with this repository's node_modules, as after `npm ci`)
 * into the project's vendor/, then installed from there, in a project outside this repository. Each
 * SDK then calls a service started here (SQLite, a key from API_KEYS) and gets a pet back.
 */
describe('the SDKs installed from the vendor/ folder of an integrator’s repository, as docs/INTEGRATING.md says', () => {
  let directory: string;
  let project: string;
  let service: ServiceProcess | undefined;
  let baseUrl: string;
  beforeAll(async () => {
    const [make, install] = await shellBlocks('docs/INTEGRATING.md', SECTION);
    directory = await mkdtemp(join(tmpdir(), 'petstore-vendor-'));

    const checkout = join(directory, 'petstore');
    const leftOut = new Set(['dist', 'build', 'tests', '__pycache__', '.mypy_cache']);
    for (const sdk of ['typescript', 'python']) {
      await cp(join('clients', sdk), join(checkout, 'clients', sdk), {
        recursive: true,
        filter: (source) => !leftOut.has(basename(source)) && !/\.(tgz|egg-info)$/.test(source),
      });
    }
    await symlink(resolve('node_modules'), join(checkout, 'node_modules'));
    project = join(directory, 'your-project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'your-project', private: true, type: 'module' }));

    // `python3` is Debian's, which has httpx, build and setuptools; no package index reaches our
    // machines, so pip is told so (which also keeps it from asking one for a newer pip).
    const bin = join(directory, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'python3'), '#!/bin/sh\nexec /usr/bin/python3 "$@"\n');
    await chmod(join(bin, 'python3'), 0o755);
    const shell = integratorEnvironment();
    const environment = { ...shell, PATH: `${bin}${delimiter}${shell.PATH}`, PIP_NO_INDEX: '1' };
    await runDocumented(make, project, environment);
    await runDocumented(install, project, environment);

    service = sqliteServiceIn(directory, API_KEY);
    baseUrl = `${await service.listening()}/v1`;
  }, 300_000);
  afterAll(async () => {
    await service?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('puts the two packages of this release in vendor/, and the project’s package.json names the tarball there', async () => {
    expect((await readdir(join(project, 'vendor'))).sort()).toEqual([
      `petstore-${version}-py3-none-any.whl`,
      `petstore-client-${version}.tgz`,
    ]);
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    expect(manifest.dependencies['@petstore/client']).toBe(`file:vendor/petstore-client-${version}.tgz`);
  });

  it('the TypeScript SDK installed from vendor/ compiles with the README’s setup and gets a pet back', async () => {
    await writeFile(join(project, 'tsconfig.json'), await readmeTsconfig());
    await writeFile(join(project, 'index.ts'), TYPESCRIPT_PROGRAM);
    await compileIn(project, project);
    const { stdout } = await run(process.execPath, ['index.js'], {
      cwd: project,
      env: { ...process.env, PETSTORE_API_KEY: API_KEY, PETSTORE_BASE_URL: baseUrl },
    });
    const { created, listed, etag } = JSON.parse(stdout);
    expect(created).toEqual(expected.pet({ id: expect.any(Number), name: 'Vendored', categoryId: 4 }));
    expect(listed).toEqual(created);
    expect(etag).toMatch(/^"[^"]+"$/);
  }, 60_000);

  it('the Python client installed from vendor/ into the project’s venv gets a pet back', async () => {
    const { stdout } = await run(join(project, '.venv/bin/python'), ['-c', PYTHON_PROGRAM], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', PETSTORE_API_KEY: API_KEY, PETSTORE_BASE_URL: baseUrl },
    });
    const outcome = JSON.parse(stdout);
    expect(outcome.created).toEqual(expected.pet({ id: expect.any(Number), name: 'Vendored', categoryId: 4 }));
    expect(outcome.listed).toEqual(outcome.created);
    expect(outcome.etag).toMatch(/^"[^"]+"$/);
    expect(outcome.from).toMatch(new RegExp(`^${project}/\\.venv/lib/python3[.\\d]*/site-packages/petstore/__init__\\.py$`));
  }, 60_000);

  it('leaves nothing of the Python client in vendor/ when its build fails: a python3 with build but no wheel', async () => {
    const [make] = await shellBlocks('docs/INTEGRATING.md', SECTION);
    // Debian's python3 with its `wheel` hidden, as a pyenv or python.org Python that was given `build` lacks it.
    const hidden = join(directory, 'no-wheel');
    await mkdir(join(hidden, 'wheel'), { recursive: true });
    await writeFile(join(hidden, 'wheel', '__init__.py'), 'raise ImportError("No module named \'wheel\'")\n');
    const bin = join(directory, 'bin-without-wheel');
    await mkdir(bin);
    await writeFile(join(bin, 'python3'), `#!/bin/sh\nPYTHONPATH=${hidden} exec /usr/bin/python3 "$@"\n`);
    await chmod(join(bin, 'python3'), 0o755);
    const elsewhere = join(directory, 'another-project');
    await mkdir(elsewhere);
    const shell = integratorEnvironment();
    const failed = await runDocumented(make, elsewhere, { ...shell, PATH: `${bin}${delimiter}${shell.PATH}`, PIP_NO_INDEX: '1' }).then(
      () => false,
      () => true,
    );
    expect({ failed, vendor: (await readdir(join(elsewhere, 'vendor'))).sort() }).toEqual({
      failed: true,
      vendor: [`petstore-client-${version}.tgz`],
    });
  }, 120_000);

  it('gives each SDK’s README the same lines as INTEGRATING’s, which ran here', async () => {
    const ran = (await shellBlocks('docs/INTEGRATING.md', SECTION)).slice(0, 2).join('');
    for (const readme of ['clients/typescript/README.md', 'clients/python/README.md']) {
      const [lines] = await shellBlocks(readme, 'vendor/');
      expect({ readme, lines: lines.split('\n').filter((line) => line && !ran.includes(line)) }).toEqual({ readme, lines: [] });
    }
  });
});
