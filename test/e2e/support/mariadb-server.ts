import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { freePort } from './free-port.js';

/** Debian's MariaDB server and its installer: the tests' servers of their own. */
const MARIADBD = ['/usr/sbin/mariadbd', '/usr/bin/mariadbd'].find((path) => existsSync(path));
const INSTALL_DB = ['/usr/bin/mariadb-install-db', '/usr/sbin/mariadb-install-db'].find((path) => existsSync(path));

/** Whether this machine can start MariaDB servers of the tests' own (Debian's mariadb-server). */
export const MARIADB_SERVERS_AVAILABLE = MARIADBD !== undefined && INSTALL_DB !== undefined;

export interface MariadbServer {
  /** mysql://root@127.0.0.1:PORT, no database. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * A MariaDB server of the test's own, on a free port of 127.0.0.1 and a data folder of its own, set
 * up with `settings` (server options, as a DBA would give them: `--sql-mode=…`); root without a
 * password. The server is stopped and its folder removed by `stop`.
 */
export async function startMariadb(settings: readonly string[]): Promise<MariadbServer> {
  if (!MARIADB_SERVERS_AVAILABLE) throw new Error('no mariadbd and mariadb-install-db on this machine (Debian: mariadb-server)');
  const directory = await mkdtemp(join(tmpdir(), 'petstore-mariadb-'));
  const data = join(directory, 'data');
  // mariadbd refuses to run as root unless told to.
  const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];
  await promisify(execFile)(INSTALL_DB!, ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', ...asRoot]);
  const port = await freePort();
  const server = spawn(
    MARIADBD!,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${join(directory, 'mariadbd.sock')}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--innodb-buffer-pool-size=32M',
      ...asRoot,
      ...settings,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  server.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4_000)));
  const url = `mysql://root@127.0.0.1:${port}`;
  const stop = async () => {
    await ended(server);
    await rm(directory, { recursive: true, force: true });
  };
  try {
    await answering(url, server);
  } catch (error) {
    await stop();
    throw new Error(`mariadbd ${settings.join(' ')} did not start: ${error instanceof Error ? error.message : error}\n${log}`, {
      cause: error,
    });
  }
  return { url, stop };
}

async function answering(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`it exited with ${server.exitCode}`);
    try {
      const connection = await mysql.createConnection({ uri: url, connectTimeout: 1_000 });
      await connection.end();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function ended(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill('SIGKILL'), 15_000);
    server.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill('SIGTERM');
  });
}
