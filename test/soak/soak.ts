/**
 * npm run soak: drives mixed traffic (list, create, read; half the creates with Idempotency-Key
 * and retries) at the service on MySQL for a bounded time, cuts the database for a few seconds in
 * the middle, then checks that every acknowledged create can be read back, that no pet exists
 * twice and that no response was a 500. Prints its figures; exits 1 when a check fails.
 *
 * SOAK_SECONDS (default 30), SOAK_CONCURRENCY (16), SOAK_OUTAGE_SECONDS (4); the MySQL server is
 * TEST_DATABASE_URL's (default mysql://root@127.0.0.1:3306), on a database of the run's own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from '../e2e/support/free-port.js';
import { ServiceProcess } from '../e2e/support/service-process.js';
import { TcpProxy } from '../e2e/support/tcp-proxy.js';

const seconds = Number(process.env.SOAK_SECONDS ?? 30);
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 16);
const outageSeconds = Number(process.env.SOAK_OUTAGE_SECONDS ?? 4);
const server = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');
const KEY = `soak-${randomBytes(8).toString('hex')}`;
const auth = { Authorization: `Bearer ${KEY}` };

const statuses = new Map<string, number>();
const acknowledged = new Map<string, number>(); // name -> id of every create answered 201
const duplicates: string[] = [];
let requests = 0;
let slowest = 0;

/** A read; what it answered is only counted. */
async function send(base: string, path: string, init: RequestInit = {}): Promise<Response | undefined> {
  const started = Date.now();
  requests++;
  try {
    const response = await fetch(`${base}${path}`, { ...init, headers: { ...auth, ...init.headers }, signal: AbortSignal.timeout(15_000) });
    await response.arrayBuffer().catch(() => undefined);
    count(String(response.status));
    return response;
  } catch (error) {
    count(`network: ${(error as Error).name}`);
    return undefined;
  } finally {
    slowest = Math.max(slowest, Date.now() - started);
  }
}

function count(key: string): void {
  statuses.set(key, (statuses.get(key) ?? 0) + 1);
}

async function create(base: string, name: string, keyed: boolean): Promise<void> {
  const body = JSON.stringify({ name, categoryId: 1 });
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(keyed ? { 'Idempotency-Key': name } : {}) };
  const deadline = Date.now() + 40_000;
  for (;;) {
    const started = Date.now();
    requests++;
    let status: number | undefined;
    let pet: { id: number; name: string } | undefined;
    try {
      const response = await fetch(`${base}/v1/pets`, {
        method: 'POST',
        headers: { ...auth, ...headers },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      status = response.status;
      const parsed = await response.json().catch(() => undefined);
      if (status === 201) pet = parsed as { id: number; name: string };
      count(String(status));
    } catch (error) {
      count(`network: ${(error as Error).name}`);
    } finally {
      slowest = Math.max(slowest, Date.now() - started);
    }
    if (pet) {
      const earlier = acknowledged.get(name);
      if (earlier !== undefined && earlier !== pet.id) duplicates.push(`${name}: acknowledged as ${earlier} and ${pet.id}`);
      acknowledged.set(name, pet.id);
      return;
    }
    // Only a keyed create may be retried: without a key a retry would be a second pet.
    if (!keyed || Date.now() > deadline || (status !== undefined && status < 500 && status !== 409)) return;
    await new Promise((wait) => setTimeout(wait, 250));
  }
}

async function worker(base: string, index: number, until: number): Promise<void> {
  let sequence = 0;
  while (Date.now() < until) {
    const dice = Math.random();
    if (dice < 0.4) {
      await send(base, `/v1/pets?limit=20${Math.random() < 0.5 ? '&status=available' : ''}`);
    } else if (dice < 0.7) {
      await create(base, `soak-${index}-${sequence++}`, Math.random() < 0.5);
    } else {
      const ids = [...acknowledged.values()];
      await send(base, ids.length ? `/v1/pets/${ids[Math.floor(Math.random() * ids.length)]}` : '/v1/pets');
    }
  }
}

/** Every pet, read page by page through the Link header. */
async function readAll(base: string): Promise<{ id: number; name: string }[]> {
  const pets: { id: number; name: string }[] = [];
  let path: string | undefined = '/v1/pets?limit=100';
  while (path) {
    const response = await fetch(`${base}${path}`, { headers: auth });
    if (response.status !== 200) throw new Error(`reading back: ${response.status}`);
    pets.push(...((await response.json()) as { id: number; name: string }[]));
    const next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '');
    path = next ? `${new URL(next[1]).pathname}${new URL(next[1]).search}` : undefined;
  }
  return pets;
}

async function main(): Promise<number> {
  const databaseName = `petstore_soak_${randomBytes(4).toString('hex')}`;
  const admin = await mysql.createConnection({ uri: server, connectTimeout: 3_000 });
  await admin.query(`CREATE DATABASE \`${databaseName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const target = new URL(server);
  const proxy = await TcpProxy.start(target.hostname, Number(target.port || 3306));
  const viaProxy = new URL(`${server}/${databaseName}`);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const port = await freePort();
  const directory = await mkdtemp(join(tmpdir(), 'petstore-soak-'));
  const service = new ServiceProcess(
    {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: viaProxy.href,
      API_KEYS: KEY,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'error',
    },
    directory,
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let ready = false; !ready; await new Promise((wait) => setTimeout(wait, 200))) {
      ready = (await fetch(`${base}/health/ready`).catch(() => undefined))?.status === 200;
      if (service.child.exitCode !== null) throw new Error(`the service stopped: ${service.stderr}`);
    }
    process.stderr.write(
      `soak: ${seconds} s, ${concurrency} workers, database cut for ${outageSeconds} s after ${Math.round(seconds / 3)} s\n`,
    );

    const until = Date.now() + seconds * 1000;
    const outage = (async () => {
      await new Promise((wait) => setTimeout(wait, (seconds / 3) * 1000));
      proxy.cut('reset');
      await new Promise((wait) => setTimeout(wait, outageSeconds * 1000));
      proxy.restore();
    })();
    await Promise.all([outage, ...Array.from({ length: concurrency }, (_, i) => worker(base, i, until))]);

    const stored = await readAll(base);
    const byName = new Map<string, number[]>();
    for (const pet of stored) byName.set(pet.name, [...(byName.get(pet.name) ?? []), pet.id]);
    const storedTwice = [...byName].filter(([, ids]) => ids.length > 1).map(([name, ids]) => `${name}: ids ${ids.join(', ')}`);
    const lost = [...acknowledged].filter(([name, id]) => !byName.get(name)?.includes(id)).map(([name, id]) => `${name} (${id})`);
    const serverErrors = statuses.get('500') ?? 0;

    const figures = {
      seconds,
      concurrency,
      outageSeconds,
      requests,
      responsesByStatus: Object.fromEntries([...statuses].sort()),
      slowestResponseMs: slowest,
      acknowledgedWrites: acknowledged.size,
      storedPets: stored.length,
      lostWrites: lost.length,
      petsStoredTwice: storedTwice.length + duplicates.length,
      responses500: serverErrors,
    };
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    const failures = [
      ...lost.map((pet) => `lost: ${pet}`),
      ...storedTwice.map((pet) => `stored twice: ${pet}`),
      ...duplicates.map((pet) => `acknowledged twice: ${pet}`),
      ...(serverErrors > 0 ? [`${serverErrors} responses were 500`] : []),
      ...(slowest > 15_000 ? [`a response took ${slowest} ms`] : []),
    ];
    for (const failure of failures) process.stderr.write(`soak: FAILED: ${failure}\n`);
    process.stderr.write(failures.length ? 'soak: FAILED\n' : 'soak: passed\n');
    return failures.length ? 1 : 0;
  } finally {
    service.child.kill('SIGTERM');
    await service.exitCode(15_000).catch(() => service.stop());
    await proxy.close();
    await admin.query(`DROP DATABASE \`${databaseName}\``);
    await admin.end();
    await rm(directory, { recursive: true, force: true });
  }
}

process.exitCode = await main();
