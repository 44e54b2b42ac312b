/**
 * npm run bench [-- --scale]
 *
 * Starts the service (dist/src/main.js, production settings) and bench/baseline.ts on their own
 * MySQL database on TEST_DATABASE_URL's server, seeds 10,000 pets and an API key, and measures
 * listPets (limit 20, with and without a status filter), createPet and getPet on both, alternating
 * service and baseline round by round with the same autocannon settings. Prints requests per
 * second, p50 and p99 latency, the service's peak resident memory, and each service/baseline
 * ratio against its target; writes the figures to bench/results/latest.json. It also measures
 * bench/framework-floor.ts (NestJS on Express answering a constant) against the baseline, which
 * shows how much of the baseline's throughput the stack itself leaves reachable.
 *
 * --scale also seeds 1,000,000 pets and compares listPets with a status filter, and a page deep
 * in the cursor chain, against the same at 10,000 pets; it prints MySQL's query plans.
 *
 * BENCH_SECONDS (10 per run), BENCH_ROUNDS (3), BENCH_CONNECTIONS (16).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { generateApiKey } from '../src/auth/api-key-secret.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { LeanSelect } from '../src/database/lean-select.js';
import { Pet } from '../src/pets/pet.entity.js';
import { encodeCursor } from '../src/http/pagination/cursor.js';
import { freePort } from '../test/e2e/support/free-port.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SEED = 10_000;
const SCALE = 1_000_000;
const TARGETS = { throughputRatio: 0.75, p99Ratio: 1.5, peakRssMb: 200, scaleRatio: 1.2 };
const server = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');

interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  non2xx: number;
  errors: number;
}

interface Target {
  name: 'service' | 'baseline' | 'floor';
  base: string;
  process: ChildProcess;
}

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: () => string;
  body?: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

function start(command: string[], env: Record<string, string>): ChildProcess {
  // Output is thrown away: the service logs a line per request, as in production.
  return spawn(process.execPath, command, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function ready(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    const status = (await fetch(url).catch(() => undefined))?.status;
    if (status !== undefined) return;
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

/** Resident memory of a process, from /proc: now, and the kernel's high-water mark. */
function memory(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMb: round(kb('VmRSS') / 1024, 1), peakRssMb: round(kb('VmHWM') / 1024, 1) };
}

async function load(target: Target, scenario: Scenario, key: string, seconds: number): Promise<Figures> {
  const result = await autocannon({
    url: target.base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: scenario.method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        setupRequest: (request) => ({ ...request, path: scenario.path(), body: scenario.body }),
      },
    ],
  });
  return {
    requestsPerSecond: round(result.requests.average, 0),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: round(result.latency.mean),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** One scenario on each target: a warm-up, then ROUNDS rounds in alternating order; medians per target. */
async function alternate(targets: Target[], scenario: Scenario, key: string): Promise<Record<string, Figures>> {
  for (const target of targets) await load(target, scenario, key, 2);
  const runs: Record<string, Figures[]> = Object.fromEntries(targets.map((target) => [target.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const target of r % 2 ? [...targets].reverse() : targets) runs[target.name].push(await load(target, scenario, key, SECONDS));
  }
  return Object.fromEntries(
    Object.entries(runs).map(([name, figures]) => [
      name,
      {
        requestsPerSecond: median(figures.map((f) => f.requestsPerSecond)),
        p50Ms: median(figures.map((f) => f.p50Ms)),
        p99Ms: median(figures.map((f) => f.p99Ms)),
        meanMs: median(figures.map((f) => f.meanMs)),
        non2xx: figures.reduce((sum, f) => sum + f.non2xx, 0),
        errors: figures.reduce((sum, f) => sum + f.errors, 0),
      },
    ]),
  );
}

async function seed(pool: mysql.Pool, from: number, to: number): Promise<void> {
  const statuses = ['available', 'pending', 'sold'];
  for (let start = from; start < to; start += 10_000) {
    const rows = [];
    for (let i = start; i < Math.min(to, start + 10_000); i++) rows.push([`Seeded ${i}`, (i % 50) + 1, statuses[i % 3]]);
    await pool.query('INSERT INTO pets (name, category_id, status) VALUES ?', [rows]);
  }
}

async function main(): Promise<void> {
  const scale = process.argv.includes('--scale');
  const databaseName = `petstore_bench_${Date.now()}`;
  const admin = await mysql.createConnection({ uri: server });
  await admin.query(`CREATE DATABASE \`${databaseName}\` CHARACTER SET utf8mb4`);
  const databaseUrl = `${server}/${databaseName}`;
  const pool = mysql.createPool({ uri: databaseUrl, connectionLimit: 4 });
  const children: ChildProcess[] = [];
  try {
    const servicePort = await freePort();
    // As npm start and the Dockerfile run it, heap cap included.
    const serviceProcess = start(['--max-old-space-size=128', 'dist/src/main.js'], {
      DATABASE_URL: databaseUrl,
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      API_KEYS: '',
      // The limiter stays on (its cost is part of every request) but high enough not to refuse.
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    children.push(serviceProcess);
    await ready(`http://127.0.0.1:${servicePort}/health/live`, serviceProcess);

    // A stored key, as an integrator would have: the service checks it against the hashed key store.
    const { key, prefix, hash } = generateApiKey();
    await pool.query('INSERT INTO api_keys (name, prefix, key_hash, created_at) VALUES (?, ?, ?, NOW())', ['bench', prefix, hash]);
    await seed(pool, 0, SEED);

    const baselinePort = await freePort();
    const baselineProcess = start(['--import', 'tsx', 'bench/baseline.ts'], { DATABASE_URL: databaseUrl, BASELINE_PORT: String(baselinePort) });
    children.push(baselineProcess);
    await ready(`http://127.0.0.1:${baselinePort}/v1/pets`, baselineProcess);

    const targets: Target[] = [
      { name: 'service', base: `http://127.0.0.1:${servicePort}`, process: serviceProcess },
      { name: 'baseline', base: `http://127.0.0.1:${baselinePort}`, process: baselineProcess },
    ];
    const randomId = () => 1 + Math.floor(Math.random() * SEED);
    const scenarios: Scenario[] = [
      { name: 'listPets', method: 'GET', path: () => '/v1/pets?limit=20' },
      { name: 'listPets status=sold', method: 'GET', path: () => '/v1/pets?limit=20&status=sold' },
      { name: 'createPet', method: 'POST', path: () => '/v1/pets', body: JSON.stringify({ name: 'Benchmark', categoryId: 7, status: 'pending' }) },
      { name: 'getPet', method: 'GET', path: () => `/v1/pets/${randomId()}` },
    ];

    process.stderr.write(
      `bench: ${os.cpus().length} CPUs (${os.cpus()[0]?.model}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}; ` +
        `${ROUNDS} rounds of ${SECONDS} s per target and operation, ${CONNECTIONS} connections\n`,
    );
    let peakRssUnderLoad = 0;
    const sampler = setInterval(() => (peakRssUnderLoad = Math.max(peakRssUnderLoad, memory(serviceProcess.pid!).rssMb)), 250);
    const results: Record<string, Record<string, Figures>> = {};
    for (const scenario of scenarios) {
      results[scenario.name] = await alternate(targets, scenario, key);
      process.stderr.write(`bench: ${scenario.name} done\n`);
    }
    clearInterval(sampler);

    // The stack's own floor, measured the same way against the baseline: see bench/framework-floor.ts.
    const floorPort = await freePort();
    const floorProcess = start(['--import', 'tsx', 'bench/framework-floor.ts'], { FLOOR_PORT: String(floorPort) });
    children.push(floorProcess);
    await ready(`http://127.0.0.1:${floorPort}/v1/pets`, floorProcess);
    const floorRun = await alternate([{ name: 'floor', base: `http://127.0.0.1:${floorPort}`, process: floorProcess }, targets[1]], scenarios[0], key);
    const floor = {
      requestsPerSecond: floorRun.floor.requestsPerSecond,
      baselineRequestsPerSecond: floorRun.baseline.requestsPerSecond,
      ratio: round(floorRun.floor.requestsPerSecond / floorRun.baseline.requestsPerSecond),
      p99Ms: floorRun.floor.p99Ms,
    };
    floorProcess.kill('SIGTERM');
    const serviceMemory = memory(serviceProcess.pid!);
    const baselineMemory = memory(baselineProcess.pid!);

    const comparison = Object.entries(results).map(([operation, { service, baseline }]) => ({
      operation,
      service,
      baseline,
      throughputRatio: round(service.requestsPerSecond / baseline.requestsPerSecond),
      p99Ratio: round(service.p99Ms / baseline.p99Ms),
    }));
    const rows = comparison.map(
      (c) =>
        `${c.operation.padEnd(22)} ${String(c.service.requestsPerSecond).padStart(7)} ${String(c.baseline.requestsPerSecond).padStart(7)} ${c.throughputRatio.toFixed(2).padStart(6)}` +
        `   ${String(c.service.p50Ms).padStart(4)} ${String(c.baseline.p50Ms).padStart(4)}   ${String(c.service.p99Ms).padStart(4)} ${String(c.baseline.p99Ms).padStart(4)} ${c.p99Ratio.toFixed(2).padStart(6)}` +
        (c.service.non2xx + c.service.errors + c.baseline.non2xx + c.baseline.errors ? '   (non-2xx or errors!)' : ''),
    );
    process.stdout.write(
      [
        '',
        `${'operation'.padEnd(22)}   req/s service baseline ratio   p50 ms svc base   p99 ms svc base  ratio`,
        ...rows,
        '',
        `service resident memory: peak under load ${peakRssUnderLoad} MB (high-water mark ${serviceMemory.peakRssMb} MB); baseline ${baselineMemory.peakRssMb} MB`,
        `framework floor (NestJS on Express, constant answer, no database): ${floor.requestsPerSecond} req/s, p99 ${floor.p99Ms} ms;` +
          ` ${floor.ratio} of the baseline's listPets (${floor.baselineRequestsPerSecond} req/s)`,
        '',
      ].join('\n'),
    );
    const checks = [
      ...comparison.map((c) => ({ what: `${c.operation} throughput ratio ${c.throughputRatio} >= ${TARGETS.throughputRatio}`, ok: c.throughputRatio >= TARGETS.throughputRatio })),
      ...comparison.map((c) => ({ what: `${c.operation} p99 ratio ${c.p99Ratio} <= ${TARGETS.p99Ratio}`, ok: c.p99Ratio <= TARGETS.p99Ratio })),
      { what: `peak resident memory ${serviceMemory.peakRssMb} MB <= ${TARGETS.peakRssMb} MB`, ok: serviceMemory.peakRssMb <= TARGETS.peakRssMb },
    ];

    let scaleFigures: unknown;
    if (scale) {
      const outcome = await scaleRun(pool, databaseUrl, targets[0], key);
      scaleFigures = outcome.figures;
      checks.push(...outcome.checks);
    }

    for (const check of checks) process.stdout.write(`${check.ok ? 'ok  ' : 'MISS'} ${check.what}\n`);
    await mkdir('bench/results', { recursive: true });
    const report = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
      settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, seededPets: SEED },
      comparison,
      memory: { service: { ...serviceMemory, peakRssUnderLoadMb: peakRssUnderLoad }, baseline: baselineMemory },
      floor,
      scale: scaleFigures,
      checks,
    };
    await writeFile('bench/results/latest.json', `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write('figures written to bench/results/latest.json\n');
    process.exitCode = checks.every((check) => check.ok) ? 0 : 1;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await pool.end();
    await admin.query(`DROP DATABASE \`${databaseName}\``);
    await admin.end();
  }
}

/** listPets with a status filter and a deep page, at 10,000 pets and then at 1,000,000. */
async function scaleRun(pool: mysql.Pool, databaseUrl: string, service: Target, key: string) {
  await pool.query('SET FOREIGN_KEY_CHECKS = 0');
  await pool.query('TRUNCATE TABLE pets');
  await pool.query('SET FOREIGN_KEY_CHECKS = 1');
  const measure = async (size: number) => {
    const deep = Math.floor(size * 0.9);
    const scenarios: Scenario[] = [
      { name: 'status=sold, first page', method: 'GET', path: () => '/v1/pets?limit=20&status=sold' },
      { name: 'status=sold, deep page', method: 'GET', path: () => `/v1/pets?limit=20&status=sold&cursor=${encodeCursor(deep, 'pets', { status: 'sold' })}` },
      { name: 'no filter, deep page', method: 'GET', path: () => `/v1/pets?limit=20&cursor=${encodeCursor(deep, 'pets', {})}` },
    ];
    const figures: Record<string, Figures> = {};
    for (const scenario of scenarios) figures[scenario.name] = (await alternate([service], scenario, key)).service;
    return { figures, deep };
  };
  await seed(pool, 0, SEED);
  await pool.query('ANALYZE TABLE pets');
  const small = await measure(SEED);
  process.stderr.write(`bench: seeding ${SCALE.toLocaleString('en')} pets\n`);
  const seeding = Date.now();
  await seed(pool, SEED, SCALE);
  await pool.query('ANALYZE TABLE pets');
  process.stderr.write(`bench: seeded in ${round((Date.now() - seeding) / 1000, 1)} s\n`);
  const large = await measure(SCALE);

  // The statements the service itself sends, from the same LeanSelect, explained by MySQL.
  const dataSource = await new DataSource(buildDataSourceOptions({ kind: 'mysql', url: databaseUrl, poolSize: 1 })).initialize();
  const pets = new LeanSelect(dataSource.getRepository(Pet));
  const plans: Record<string, unknown> = {};
  for (const [name, query] of [
    ['status filter, first page', { equal: { status: 'sold' }, limit: 21 }],
    ['status filter, deep page', { equal: { status: 'sold' }, afterId: large.deep, limit: 21 }],
    ['no filter, deep page', { afterId: large.deep, limit: 21 }],
  ] as const) {
    const { sql, parameters } = pets.prepare(query);
    const [rows] = await pool.query(`EXPLAIN ${sql}`, parameters);
    plans[name] = { sql, plan: rows };
  }
  await dataSource.destroy();
  const lines = ['', `scale: mean latency at ${SEED.toLocaleString('en')} pets vs ${SCALE.toLocaleString('en')} pets (ratio, target <= ${TARGETS.scaleRatio})`];
  const checks = [];
  for (const name of Object.keys(small.figures)) {
    const ratio = round(large.figures[name].meanMs / small.figures[name].meanMs);
    lines.push(`  ${name.padEnd(26)} ${small.figures[name].meanMs} ms -> ${large.figures[name].meanMs} ms  (${ratio})`);
    checks.push({ what: `at 1,000,000 pets, ${name} takes ${ratio}x its time at 10,000 (<= ${TARGETS.scaleRatio})`, ok: ratio <= TARGETS.scaleRatio });
  }
  lines.push('', 'query plans at 1,000,000 pets (MySQL EXPLAIN):');
  for (const [name, { sql, plan }] of Object.entries(plans as Record<string, { sql: string; plan: Record<string, unknown>[] }>)) {
    lines.push(`  ${name}: ${sql}`);
    for (const row of plan) lines.push(`    type=${row.type} key=${row.key} rows=${row.rows} extra=${row.Extra}`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
  return { figures: { small: small.figures, large: large.figures, plans }, checks };
}

await main();
