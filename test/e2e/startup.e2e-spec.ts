import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ServiceProcess } from './support/service-process.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { useServiceProcesses } from './support/use-service-processes.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

describe('starting the service', () => {
  const { spawn: start } = useServiceProcesses();

  it('serves the API with nothing but API_KEYS, on the SQLite file data/petstore.sqlite', async () => {
    const running = await start({ API_KEYS: 'start-key' });
    const base = await running.listening();
    const auth = { Authorization: 'Bearer start-key', 'Content-Type': 'application/json' };

    const created = await fetch(`${base}/v1/pets`, { method: 'POST', headers: auth, body: '{"name":"Rex","categoryId":1}' });
    expect(created.status).toBe(201);
    const listed = await fetch(`${base}/v1/pets`, { headers: auth });
    expect(await listed.json()).toEqual([await created.json()]);
    expect(existsSync(join(running.directory, 'data', 'petstore.sqlite'))).toBe(true);
    expect(running.stdout).toMatch(/with SQLite file data\/petstore\.sqlite; .*; docs at http:\/\/127\.0\.0\.1:\d+\/v1\/docs/);
  });

  it('says it listens on every IPv4 interface when HOST is not set, as it does, and where to call it on this machine', async () => {
    const running = await start({ API_KEYS: 'start-key', HOST: '' });
    const [, port] = await running.waitForOutput(/Listening on 0\.0\.0\.0:(\d+) \(every IPv4 interface of this machine\) with /);
    expect(await running.listening()).toBe(`http://127.0.0.1:${port}`);
    // Bound to every address: one that is not 127.0.0.1 answers too.
    expect((await fetch(`http://127.0.0.2:${port}/health/live`)).status).toBe(200);
  });

  it('says a loopback HOST is this machine only, as it is', async () => {
    const running = await start({ API_KEYS: 'start-key', HOST: '127.0.0.1' });
    const [, port] = await running.waitForOutput(/Listening on 127\.0\.0\.1:(\d+) \(loopback: this machine only\) with /);
    expect(await running.listening()).toBe(`http://127.0.0.1:${port}`);
    await expect(fetch(`http://127.0.0.2:${port}/health/live`)).rejects.toThrow();
  });

  it('names the address it listens on and the quick-start command by HOST', async () => {
    const running = await start({ HOST: '127.0.0.2', PORT: '0' });
    const base = await running.listening();
    expect(base).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    expect(running.stdout).toMatch(new RegExp(`docs at ${base}/v1/docs`));
    // The command the quick start shows works as it is.
    const [, key, url] = /curl -H 'Authorization: Bearer (psk_\S+)' (\S+)/.exec(running.stdout)!;
    expect(url).toBe(`${base}/v1/pets`);
    expect((await fetch(url, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('names PUBLIC_BASE_URL as where it is reached, in its log and in the quick-start command', async () => {
    const running = await start({ HOST: '127.0.0.1', PORT: '0', PUBLIC_BASE_URL: 'https://pets.example.net' });
    await running.listening();
    expect(running.stdout).toMatch(
      /Listening on 127\.0\.0\.1:\d+ \(loopback: this machine only\) with .*; on this machine at http:\/\/127\.0\.0\.1:\d+\/v1, reached at https:\/\/pets\.example\.net\/v1; docs at https:\/\/pets\.example\.net\/v1\/docs/,
    );
    expect(running.stdout).toMatch(/curl -H 'Authorization: Bearer psk_\S+' https:\/\/pets\.example\.net\/v1\/pets/);
  });

  it('says which port is in use when another process holds it, with exit code 1 and one line', async () => {
    const holder = createServer();
    await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
    const { port } = holder.address() as AddressInfo;
    try {
      const failing = await start({ API_KEYS: 'start-key', HOST: '127.0.0.1', PORT: String(port) });
      expect(await failing.exitCode()).toBe(1);
      expect(failing.stderr).toBe(
        `petstore: cannot start: port ${port} on 127.0.0.1 is in use by another process (choose another PORT, or stop that process)\n`,
      );
    } finally {
      holder.close();
    }
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be an integer from 0 to 65535 \(got "eighty"\)/],
    [{ DATABASE_URL: 'postgres://app:hunter2@db/petstore' }, /DATABASE_URL must start with sqlite: or mysql:\/\//],
    [{ DATABASE_URL: 'mysql://app:hunter2@db:3306' }, /DATABASE_URL must name a database/],
  ])('stops on %p with exit code 1 and one clear line', async (env, message) => {
    const failing = await start({ API_KEYS: 'start-key', ...env });
    expect(await failing.exitCode()).toBe(1);
    const lines = failing.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^petstore: cannot start: invalid configuration: /);
    expect(lines[0]).toMatch(message);
    expect(failing.stderr + failing.stdout).not.toContain('hunter2');
    expect(failing.stdout).toBe('');
  });
});

describe.each(DATABASE_KINDS.filter((kind) => kind === 'mysql'))(
  'starting on a MySQL server that will not keep the session, on %s',
  (kind) => {
    const { spawn: start } = useServiceProcesses();
    let database: TestDatabase;
    let proxy: TcpProxy;
    beforeAll(async () => {
      database = await createTestDatabase(kind);
      const direct = new URL(database.url);
      proxy = await TcpProxy.start(direct.hostname, Number(direct.port));
      // As a proxy in between that rewrites the session would: the first of its modes becomes two others.
      proxy.rewrite('ONLY_FULL_GROUP_BY', 'ANSI_QUOTES,ORACLE');
    });
    afterAll(async () => {
      await proxy?.close();
      await database?.drop();
    });

    it('refuses to start, with exit code 1 and one line naming the session and what the server made of it', async () => {
      const viaProxy = new URL(database.url);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      const failing = await start({ API_KEYS: 'start-key', HOST: '127.0.0.1', PORT: '0', DATABASE_URL: viaProxy.href });
      expect(await failing.exitCode()).toBe(1);
      const lines = failing.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^petstore: cannot start: the database at 127\\.0\\.0\\.1:${proxy.port}: the session the service needs could not be set ` +
            "\\(SET SESSION sql_mode = 'ONLY_FULL_GROUP_BY,.*\\): after setting it, sql_mode is '[^']*ANSI_QUOTES[^']*'",
        ),
      );
    });
  },
);

describe.each(DATABASE_KINDS)('the quick-start key on %s', (kind) => {
  const KEY = /psk_[A-Za-z0-9_-]{43}/g;
  let database: TestDatabase;
  let directory: string;
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    directory = await mkdtemp(join(tmpdir(), 'petstore-quick-'));
  });
  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });
  afterAll(async () => {
    await database?.drop();
    await rm(directory, { recursive: true, force: true });
  });
  const start = (env: Record<string, string> = {}) => {
    service = new ServiceProcess({ HOST: '127.0.0.1', PORT: '0', DATABASE_URL: database.url, ...env }, directory);
    return service;
  };
  const petsWith = async (base: string, key: string) =>
    (await fetch(`${base}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } })).status;

  it('is not made in production, where a service without keys refuses everything', async () => {
    const running = start({ NODE_ENV: 'production' });
    const base = await running.listening();
    expect(running.stdout).not.toMatch(KEY);
    expect(await petsWith(base, 'anything')).toBe(401);
  });

  it('is made when no key exists, shown exactly once with how to use it, and works', async () => {
    const running = start();
    const base = await running.listening();
    const keys = running.stdout.match(KEY) ?? [];
    expect(keys).toHaveLength(1);
    const key = keys[0] ?? '';
    expect(running.stdout).toContain(`curl -H 'Authorization: Bearer ${key}'`);
    expect(await petsWith(base, key)).toBe(200);
    await running.stop();

    const restarted = start();
    const restartedBase = await restarted.listening();
    expect(restarted.stdout).not.toMatch(KEY);
    expect(await petsWith(restartedBase, key)).toBe(200);
  });

  it('is not made when API_KEYS has keys', async () => {
    const other = await createTestDatabase(kind);
    try {
      service = new ServiceProcess({ HOST: '127.0.0.1', PORT: '0', DATABASE_URL: other.url, API_KEYS: 'boot' }, directory);
      await service.listening();
      expect(service.stdout).not.toMatch(KEY);
    } finally {
      await service?.stop();
      await other.drop();
    }
  });
});
