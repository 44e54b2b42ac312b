import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The built entry point: `npm test` builds before it tests, so process tests run what ships. */
export const MAIN_SCRIPT = resolve('dist/src/main.js');

/**
 * Node's cache of compiled code, where `npm test` keeps it (scripts/test-all.sh): how fast a program
 * starts (a key tool in a quarter less processor time), never how it behaves, so it goes to every one.
 */
const COMPILE_CACHE: Record<string, string> = process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {};

/** A program of ours (the service by default) as an operator runs it: its own process, configured only by the environment. */
export class ServiceProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  private readonly exited: Promise<number | null>;

  constructor(env: Record<string, string>, cwd: string, script = MAIN_SCRIPT, args: readonly string[] = []) {
    if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first (npm test does).`);
    this.child = spawn(process.execPath, [script, ...args], { cwd, env: { ...COMPILE_CACHE, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((done) => this.child.on('exit', (code) => done(code)));
  }

  /** Resolves with the first match of `pattern` in the output, or rejects after `timeoutMs`. */
  async waitForOutput(pattern: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = (this.stdout + this.stderr).match(pattern);
      if (match) return match;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`no ${pattern} in the output:\n${this.stdout}\n${this.stderr}`);
      }
      await new Promise((wait) => setTimeout(wait, 50));
    }
  }

  /** The base URL once the service says it listens (its host as it says it, 127.0.0.1 for localhost). */
  async listening(): Promise<string> {
    const [, host, port] = await this.waitForOutput(/Listening on .*; on this machine at http:\/\/(\[[^\]]+\]|[^:/\s]+):(\d+)\/v1/);
    return `http://${host === 'localhost' ? '127.0.0.1' : host}:${port}`;
  }

  /** The exit code, or rejects when the process is still running after `timeoutMs`. */
  async exitCode(timeoutMs = 15_000): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops it as an operator would (SIGTERM: it finishes, flushes its log, exits), then its exit code. */
  async terminate(timeoutMs = 15_000): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exitCode(timeoutMs);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}

/**
 * The service as a newcomer starts it, on 127.0.0.1 and a free port, on an SQLite file of its own in
 * `directory` (its working folder too), with `apiKey` its one key.
 */
export function sqliteServiceIn(directory: string, apiKey: string, script = MAIN_SCRIPT): ServiceProcess {
  const env = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: `sqlite:${join(directory, 'petstore.sqlite')}`,
    API_KEYS: apiKey,
  };
  return new ServiceProcess(env, directory, script);
}

export const APIKEY_SCRIPT = resolve('dist/src/cli/apikey.js');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the API-key tool as an operator would, configured only by `env`. */
export async function runApiKeyCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const cli = new ServiceProcess(env, process.cwd(), APIKEY_SCRIPT, args);
  const code = await cli.exitCode(20_000);
  return { code, stdout: cli.stdout, stderr: cli.stderr };
}

export const SANDBOXES_SCRIPT = resolve('dist/src/cli/sandboxes.js');

/** Runs the sandboxes tool as an operator would, configured only by `env`. */
export async function runSandboxesCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const cli = new ServiceProcess(env, process.cwd(), SANDBOXES_SCRIPT, args);
  const code = await cli.exitCode(20_000);
  return { code, stdout: cli.stdout, stderr: cli.stderr };
}
