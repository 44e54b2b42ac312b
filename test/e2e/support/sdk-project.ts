import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
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

/**
 * An empty ES-module project at `directory`, with what the README's `npm install` line installs
 * there: the SDK's tarball (the packed one, wherever the README's path points) and the packages
 * named beside it, from the npm registry, as a newcomer gets them.
 */
export async function newcomerProject(directory: string, tarball: string): Promise<string> {
  const install = /^npm install (\S+\.tgz)((?: [^\s#]+)*)/m.exec(await readmeSection());
  if (!install) throw new Error('the README\'s "Call it from TypeScript" has no `npm install …tgz …` line');
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, 'package.json'), JSON.stringify({ name: 'your-project', private: true, type: 'module' }));
  const packages = install[2].trim().split(/\s+/).filter(Boolean);
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...packages], { cwd: directory }).catch(
    (error: Error) => {
      throw new Error(`npm install ${packages.join(' ')}, as the README says, failed (it needs the npm registry): ${error.message}`, {
        cause: error,
      });
    },
  );
  return directory;
}

/**
 * Runs the TypeScript compiler the project installed (as `npx tsc` there) in `folder`; a failure
 * carries what tsc said.
 */
export async function compileIn(project: string, folder: string, args: readonly string[] = []): Promise<void> {
  try {
    await run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), ...args], { cwd: folder });
  } catch (error) {
    throw new Error(`tsc ${args.join(' ')} in ${folder}:\n${(error as { stdout?: string }).stdout || (error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * The environment of an integrator's own shell: this process's, without what `npm test` adds to it
 * (its npm_* settings, and this repository's node_modules/.bin on PATH), so that npm and npx in a
 * project outside the repository see only that project and the npm registry.
 */
export function integratorEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'INIT_CWD'),
  ) as NodeJS.ProcessEnv;
  const path = (process.env.PATH ?? '').split(delimiter).filter((entry) => !entry.endsWith(join('node_modules', '.bin')));
  return { ...environment, PATH: path.join(delimiter), ...extra };
}

/** The ```sh blocks of `file` after `marker`, in order, as they stand there. */
export async function shellBlocks(file: string, marker: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  const start = text.indexOf(marker);
  if (start < 0) throw new Error(`${file} has no "${marker}"`);
  return [...text.slice(start).matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((match) => match[1]);
}

/**
 * Runs a documented block of shell lines in `cwd` as a reader pastes them into bash, stopping at
 * the first that fails, with no terminal (as in CI: a command that would ask stops instead); a
 * failure carries what it printed.
 */
export async function runDocumented(block: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const running = run('bash', ['-e', '-o', 'pipefail', '-c', block], { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    // Nothing to read: a command that waits for an answer ends rather than hangs.
    running.child.stdin?.end();
    return (await running).stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`in ${cwd}:\n${block}\nfailed:\n${stdout}${stderr}`, { cause: error });
  }
}

/** A fenced TypeScript block of a document: where it is, the words after the fence's language, and its text. */
export interface TypeScriptBlock {
  readonly file: string;
  readonly line: number;
  readonly info: readonly string[];
  readonly code: string;
}

/** Every ```ts and ```typescript block of these files. */
export async function typeScriptBlocks(files: readonly string[]): Promise<TypeScriptBlock[]> {
  const blocks: TypeScriptBlock[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/^```(ts|typescript)((?:[ \t]+\S+)*)[ \t]*\n([\s\S]*?)^```/gm)) {
      const line = text.slice(0, match.index).split('\n').length;
      blocks.push({ file, line, info: match[2].trim().split(/\s+/).filter(Boolean), code: match[3] });
    }
  }
  return blocks;
}
