import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { round } from './load.js';

export function start(command: string[], env: Record<string, string>, cwd = process.cwd()): ChildProcess {
  // stdout is read and dropped, as a container runtime reads it: the service logs a line per request.
  const child = spawn(process.execPath, command, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout!.resume();
  return child;
}

/**
 * The service's environment in every bench: production settings on 127.0.0.1, keys only from the
 * database, and the rate limiter on (its cost is part of every request) but high enough not to refuse.
 */
export function serviceEnvironment(databaseUrl: string, port: number, settings: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    API_KEYS: '',
    RATE_LIMIT_PER_MINUTE: '1000000',
    // The sandboxes' shared budget (3,000 a minute) would answer a sandbox's load 429s: off, as the per-key limit is.
    SANDBOX_RATE_LIMIT_PER_MINUTE: '0',
    ...settings,
  };
}

/**
 * The Node arguments of the start:prod of `dir`'s package.json (`node FLAGS… dist/src/main.js`); with
 * BENCH_NODE_FLAGS set, its flags instead of start:prod's (`none` for none: V8's defaults), to
 * measure the service under other heap settings.
 */
export function productionCommand(dir = '.'): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [node, ...args] = scripts['start:prod'].split(' ');
  if (node !== 'node' || args.at(-1) !== 'dist/src/main.js')
    throw new Error(`start:prod is not "node … dist/src/main.js": ${scripts['start:prod']}`);
  const flags = process.env.BENCH_NODE_FLAGS;
  return flags === undefined ? args : commandWithFlags(flags);
}

/** The service's command under other node flags (`none`: V8's defaults). */
export function commandWithFlags(flags: string): string[] {
  return [...(flags === 'none' ? [] : flags.split(' ').filter(Boolean)), 'dist/src/main.js'];
}

export async function ready(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    const status = (await fetch(url).catch(() => undefined))?.status;
    if (status !== undefined) return;
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

/** Resident memory of a process, from /proc: now, and the kernel's high-water mark. */
export function memory(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: round(kb('VmRSS') / 1024, 1), peakRssMb: round(kb('VmHWM') / 1024, 1) };
}
