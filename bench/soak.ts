/**
 * npm run bench:soak
 *
 * The service under a steady load for a long while, as npm start runs it (or with BENCH_NODE_FLAGS):
 * whether its memory and its tail latency stay flat once warm, which a short benchmark cannot say.
 * A mix of listPets (with and without a status filter), getPet and createPet at a fixed rate, one
 * minute at a time; after each minute the minute's p50 and p99 and the process's resident memory.
 * Fails when, past the first five minutes (warm-up), its resident memory grows by more than 10% or a
 * minute's p99 is more than twice the median of the minutes' p99s.
 *
 * BENCH_SOAK_MINUTES (20), BENCH_SOAK_RATE (requests a second, 600), BENCH_CONNECTIONS (16); the
 * MySQL server is TEST_DATABASE_URL's, on a database of the run's own.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { freePort } from '../test/e2e/support/free-port.js';
import { seedPets, storeBenchKey } from './fixtures.js';
import { CONNECTIONS, median, round, SEED } from './load.js';
import { memory, productionCommand, ready, serviceEnvironment, start } from './processes.js';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 20);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 600);
const server = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');

interface Minute {
  minute: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  rssMb: number;
  non2xx: number;
}

async function main(): Promise<void> {
  const databaseName = `petstore_soak_${Date.now()}`;
  const admin = await mysql.createConnection({ uri: server });
  await admin.query(`CREATE DATABASE \`${databaseName}\` CHARACTER SET utf8mb4`);
  const pool = mysql.createPool({ uri: `${server}/${databaseName}`, connectionLimit: 2 });
  const port = await freePort();
  const command = productionCommand();
  const service = start(command, serviceEnvironment(`${server}/${databaseName}`, port));
  try {
    const base = `http://127.0.0.1:${port}`;
    await ready(`${base}/health/live`, service);
    const key = await storeBenchKey(pool);
    await seedPets(pool, 0, SEED);
    process.stderr.write(`bench:soak: ${MINUTES} minutes at ${RATE} requests a second, flags "${command.slice(0, -1).join(' ')}"\n`);
    const minutes: Minute[] = [];
    for (let minute = 1; minute <= MINUTES; minute++) {
      const result = await autocannon({
        url: base,
        connections: CONNECTIONS,
        duration: 60,
        overallRate: RATE,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        requests: [
          { method: 'GET', path: '/v1/pets?limit=20' },
          { method: 'GET', path: '/v1/pets?limit=20&status=sold' },
          { method: 'GET', setupRequest: (request) => ({ ...request, path: `/v1/pets/${1 + Math.floor(Math.random() * SEED)}` }) },
          { method: 'POST', path: '/v1/pets', body: JSON.stringify({ name: 'Soaked', categoryId: 7 }) },
        ],
      });
      const figures = {
        minute,
        requests: result.requests.total,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        rssMb: memory(service.pid!).rssMb,
        non2xx: result.non2xx + result.errors,
      };
      minutes.push(figures);
      process.stdout.write(
        `minute ${String(minute).padStart(2)}: ${figures.requests} requests, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, ` +
          `resident ${figures.rssMb} MB${figures.non2xx ? `, ${figures.non2xx} not 2xx` : ''}\n`,
      );
    }
    // The first five minutes warm up (fewer in a shorter run): the code's compilation, the pool, the heap's sizes.
    const warmUp = Math.min(5, Math.floor(MINUTES / 4));
    const warm = minutes.filter(({ minute }) => minute > warmUp);
    const growth = round(Math.max(...warm.map(({ rssMb }) => rssMb)) / warm[0].rssMb - 1, 3);
    const p99Median = median(warm.map(({ p99Ms }) => p99Ms));
    const checks = [
      { what: `resident memory after minute ${warmUp} grew ${round(growth * 100, 1)}% (at most 10%)`, ok: growth <= 0.1 },
      {
        what: `every minute's p99 after minute ${warmUp} within twice their median, ${p99Median} ms (highest ${Math.max(...warm.map(({ p99Ms }) => p99Ms))} ms)`,
        ok: warm.every(({ p99Ms }) => p99Ms <= 2 * p99Median),
      },
      { what: 'every answer a 2xx', ok: minutes.every(({ non2xx }) => non2xx === 0) },
    ];
    for (const check of checks) process.stdout.write(`${check.ok ? 'ok  ' : 'MISS'} ${check.what}\n`);
    await mkdir('bench/results', { recursive: true });
    await writeFile(
      'bench/results/soak.json',
      `${JSON.stringify({ date: new Date().toISOString(), rate: RATE, flags: command, minutes, checks }, null, 2)}\n`,
    );
    process.exitCode = checks.every(({ ok }) => ok) ? 0 : 1;
  } finally {
    service.kill('SIGTERM');
    await pool.end();
    await admin.query(`DROP DATABASE \`${databaseName}\``);
    await admin.end();
  }
}

await main();
