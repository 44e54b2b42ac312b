import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `npm pack` of clients/typescript into `directory`, as the README says to build the package; answers the tarball's path. */
export async function packSdk(directory: string): Promise<string> {
  await run('npm', ['pack', '--pack-destination', directory], { cwd: 'clients/typescript' });
  const [tarball] = (await readdir(directory)).filter((file) => file.endsWith('.tgz'));
  return join(directory, tarball);
}

/** The section of the README that sets up a TypeScript project of an integrator's. */
async function readmeSection(): Promise<string> {
  const readme = await readFile('README.md', 'utf8');
  const start = readme.indexOf('## Call it from TypeScript');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

/** The tsconfig.json of the README's "Call it from TypeScript", as it stands there. */
export async function readmeTsconfig(): Promise<string> {
  return /```json\n([\s\S]*?)```/.exec(await readmeSection())![1];
}
