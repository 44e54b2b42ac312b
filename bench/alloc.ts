/**
 * npm run bench:alloc [-- --record]
 *
 * What one request of each operation costs the service, in figures that do not depend on how fast
 * the machine is: the bytes V8 allocated for it, the bytes of it promoted to the old generation, and
 * the service process's own CPU time. The service runs as package.json's start:prod runs it, on its
 * own MySQL database on TEST_DATABASE_URL's server with 10,000 pets, plus `--trace-gc-nvp` (V8 prints
 * what every collection found allocated and promoted) and `--inspect` on 127.0.0.1 (through which the
 * bench forces a full collection before and after the measured requests, so that the collections in
 * between account for every byte allocated, and reads `process.cpuUsage()`).
 *
 * Each operation: WARM_UP requests, then REQUESTS more at CONNECTIONS at a time, the same requests in
 * the same order on every run. Bytes allocated are the figure CI holds the service to: an operation
 * allocating more than TOLERANCE above its figure in bench/allocation.json fails the run. Promoted
 * bytes and CPU time depend on timing (which requests are in flight when a collection runs; the
 * processor) and are reported beside. Figures go to bench/results/alloc.json; --record writes them
 * into bench/allocation.json as the new expected figures (say why in the same change); --profile also
 * samples every allocation of each operation's requests and prints where they come from; --floor
 * also measures the stack floor (bench/stack-floor.ts) on the operations it serves.
 * BENCH_ALLOC_ONLY=listPets,getPet measures only those operations.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import mysql from 'mysql2/promise';
import { freePort } from '../test/e2e/support/free-port.js';
import { seedPets, storeBenchKey } from './fixtures.js';
import { CollectionTrace } from './gc-trace.js';
import { SEED } from './load.js';
import { productionCommand, ready, serviceEnvironment, start } from './processes.js';

const WARM_UP = 2_000;
const promotedOnly = process.argv.includes('--profile=promoted');
const REQUESTS = 5_000;
const CONNECTIONS = 16;
/** How far above its committed figure an operation's bytes allocated per request may go. */
const TOLERANCE = 0.15;
const EXPECTED_FILE = 'bench/allocation.json';
/** The operations the stack floor serves (--floor). */
const FLOOR_OPERATIONS = ['listPets', 'listPets status=sold', 'getPet', 'createPet'];
const server = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');

interface Operation {
  name: string;
  method: 'GET' | 'POST';
  /** The path and body of the i-th request: the same sequence on every run. */
  request: (i: number) => { path: string; body?: string; headers?: Record<string, string> };
}

/** A seeded pet's id, spread over the table the same way each run. */
const seededId = (i: number) => 1 + ((i * 7919) % SEED);
/**
 * Pets past the SEED to place orders on: an order holds its pet, so each needs an available one of
 * its own, and seedPets makes every third pet available (ids follow the seeding's order from 1).
 */
const FIRST_ORDERABLE = Math.ceil(SEED / 3) * 3;
const ORDERABLE = WARM_UP + 2 * REQUESTS;
const orderableId = (i: number) => FIRST_ORDERABLE + 3 * i + 1;

const OPERATIONS: Operation[] = [
  { name: 'listPets', method: 'GET', request: () => ({ path: '/v1/pets?limit=20' }) },
  { name: 'listPets status=sold', method: 'GET', request: () => ({ path: '/v1/pets?limit=20&status=sold' }) },
  { name: 'getPet', method: 'GET', request: (i) => ({ path: `/v1/pets/${seededId(i)}` }) },
  {
    name: 'createPet',
    method: 'POST',
    request: () => ({ path: '/v1/pets', body: '{"name":"Benchmark","categoryId":7,"status":"pending"}' }),
  },
  {
    name: 'createPet Idempotency-Key',
    method: 'POST',
    request: () => ({
      path: '/v1/pets',
      body: '{"name":"Benchmark","categoryId":7,"status":"pending"}',
      headers: { 'Idempotency-Key': randomUUID() },
    }),
  },
  { name: 'placeOrder', method: 'POST', request: (i) => ({ path: '/v1/store/orders', body: `{"petId":${orderableId(i)},"quantity":1}` }) },
];

/** Per request, over one operation's measured requests. */
export interface Cost {
  allocatedBytes: number;
  promotedBytes: number;
  cpuMicros: number;
}

/** The service's inspector: full collections on demand, its CPU time, and marks on its stdout. */
class Inspector {
  private next = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', ({ data }) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: unknown };
      if (message.error) throw new Error(`inspector: ${JSON.stringify(message.error)}`);
      if (message.id) this.waiting.get(message.id)?.(message.result);
    });
  }

  static async connect(port: number): Promise<Inspector> {
    const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
    const socket = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve);
      socket.addEventListener('error', reject);
    });
    return new Inspector(socket);
  }

  call(method: string, params: object = {}): Promise<unknown> {
    const id = this.next++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  /** A full collection, then a mark on stdout after its trace line; the service's CPU time then, in µs. */
  async collect(trace: CollectionTrace): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    const mark = String(this.next);
    const seen = trace.seen(mark);
    const { result } = (await this.call('Runtime.evaluate', {
      expression: `process.stdout.write('\\nalloc-bench-mark ${mark}\\n'), (({ user, system }) => user + system)(process.cpuUsage())`,
      returnByValue: true,
    })) as { result: { value: number } };
    await seen;
    return result.value;
  }

  close(): void {
    this.socket.close();
  }
}

/** `count` requests of `operation` from `first` on, CONNECTIONS at a time on kept-open connections. */
async function drive(base: string, key: string, operation: Operation, first: number, count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let next = first;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const { path, body, headers } = operation.request(i);
      const request = http.request(`${base}${path}`, {
        method: operation.method,
        agent,
        headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
      });
      request.on('response', (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode! < 300 ? resolve() : reject(new Error(`${operation.name}: ${path} answered ${response.statusCode}`)),
        );
      });
      request.on('error', reject);
      request.end(body);
    });
  const worker = async () => {
    while (next < first + count) await one(next++);
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
}

async function measure(base: string, key: string, inspector: Inspector, trace: CollectionTrace, operation: Operation): Promise<Cost> {
  await drive(base, key, operation, 0, WARM_UP);
  const cpuBefore = await inspector.collect(trace);
  const from = trace.collections.length;
  await drive(base, key, operation, WARM_UP, REQUESTS);
  const { result } = (await inspector.call('Runtime.evaluate', {
    expression: '(({ user, system }) => user + system)(process.cpuUsage())',
    returnByValue: true,
  })) as { result: { value: number } };
  const cpuAfter = result.value;
  await inspector.collect(trace);
  const during = trace.collections.slice(from);
  // The last collection is the forced one: what it finds allocated counts, what it promotes does not.
  const allocated = during.reduce((sum, c) => sum + c.allocated, 0);
  const promoted = during.slice(0, -1).reduce((sum, c) => sum + c.promoted, 0);
  return {
    allocatedBytes: Math.round(allocated / REQUESTS),
    promotedBytes: Math.round(promoted / REQUESTS),
    cpuMicros: Math.round((cpuAfter - cpuBefore) / REQUESTS),
  };
}

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/**
 * --profile: REQUESTS more of the operation under V8's sampling heap profiler (every allocation
 * counted, whenever it was collected), written where DevTools opens it, and the places in our code
 * and our dependencies that allocate the most per request.
 */
async function profile(base: string, key: string, inspector: Inspector, operation: Operation): Promise<string> {
  await inspector.call('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    // --profile=promoted: only what outlived the young generation (what the old one fills with).
    includeObjectsCollectedByMinorGC: !promotedOnly,
  });
  await drive(base, key, operation, WARM_UP + REQUESTS, REQUESTS);
  const { profile } = (await inspector.call('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
  const file = `bench/results/alloc-${operation.name.replace(/\W+/g, '-')}.heapprofile`;
  await writeFile(file, JSON.stringify(profile));
  const bySite = new Map<string, number>();
  const visit = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/^file:\/\/.*?node_modules\//, '').replace(/^file:\/\/\/.*?\/dist\//, 'dist/')}:${lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    node.children.forEach(visit);
  };
  visit(profile.head);
  const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25);
  return [
    `${operation.name}: the sites that allocate the most, bytes per request (${file})`,
    ...top.map(([site, bytes]) => `  ${String(Math.round(bytes / REQUESTS)).padStart(7)}  ${site}`),
    '',
  ].join('\n');
}

interface Expected {
  about: string;
  node: string;
  flags: string;
  expected: Record<string, Cost>;
  /** The figures of main before issue 40, which it set out to halve. */
  baseline: { commit: string; allocatedBytes: Record<string, number> };
}

/** A server under measurement: its process, traced and inspected, and where it answers. */
interface Measured {
  base: string;
  inspector: Inspector;
  trace: CollectionTrace;
}

/** Starts `args` under node with the collections traced and an inspector, runs `use`, then stops it. */
async function withServer<T>(
  args: string[],
  environment: (port: number) => Record<string, string>,
  readyPath: string,
  use: (server: Measured) => Promise<T>,
): Promise<T> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const child = start(['--trace-gc-nvp', `--inspect=127.0.0.1:${inspectorPort}`, '--inspect-publish-uid=http', ...args], environment(port));
  const trace = new CollectionTrace(child.stdout!);
  let inspector: Inspector | undefined;
  try {
    const base = `http://127.0.0.1:${port}`;
    await ready(`${base}${readyPath}`, child);
    inspector = await Inspector.connect(inspectorPort);
    return await use({ base, inspector, trace });
  } finally {
    inspector?.close();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

async function main(): Promise<void> {
  const record = process.argv.includes('--record');
  const profiling = process.argv.includes('--profile') || promotedOnly;
  const withFloor = process.argv.includes('--floor');
  const databaseName = `petstore_alloc_${Date.now()}`;
  const admin = await mysql.createConnection({ uri: server });
  await admin.query(`CREATE DATABASE \`${databaseName}\` CHARACTER SET utf8mb4`);
  const databaseUrl = `${server}/${databaseName}`;
  const pool = mysql.createPool({ uri: databaseUrl, connectionLimit: 2 });
  const command = productionCommand();
  const flags = command.slice(0, -1).join(' ');
  const only = process.env.BENCH_ALLOC_ONLY?.split(',');
  const operations = OPERATIONS.filter(({ name }) => !only || only.includes(name));
  try {
    process.stderr.write(
      `bench:alloc: ${os.cpus()[0]?.model}, node ${process.version}, service flags "${flags}"; ` +
        `${WARM_UP} requests to warm up, ${REQUESTS} measured, ${CONNECTIONS} at a time\n`,
    );
    const costs: Record<string, Cost> = {};
    const profiles: string[] = [];
    await mkdir('bench/results', { recursive: true });
    let key = '';
    await withServer(
      command,
      (port) => serviceEnvironment(databaseUrl, port),
      '/health/live',
      async ({ base, inspector, trace }) => {
        key = await storeBenchKey(pool);
        await seedPets(pool, 0, FIRST_ORDERABLE + 3 * ORDERABLE);
        for (const operation of operations) {
          costs[operation.name] = await measure(base, key, inspector, trace, operation);
          if (profiling) profiles.push(await profile(base, key, inspector, operation));
        }
      },
    );
    process.stdout.write(profiles.join('\n'));
    // The stack floor (bench/stack-floor.ts, Node's own heap settings) on the same rows: what NestJS,
    // Express, TypeORM and mysql2 allocate for the operations it serves, with nothing of ours.
    const floorCosts: Record<string, Cost> = {};
    if (withFloor) {
      await withServer(
        ['--import', 'tsx', 'bench/stack-floor.ts'],
        (port) => ({ DATABASE_URL: databaseUrl, FLOOR_PORT: String(port) }),
        '/v1/pets',
        async ({ base, inspector, trace }) => {
          for (const operation of operations.filter(({ name }) => FLOOR_OPERATIONS.includes(name)))
            floorCosts[operation.name] = await measure(base, key, inspector, trace, operation);
        },
      );
    }

    const file = JSON.parse(readFileSync(EXPECTED_FILE, 'utf8')) as Expected;
    const column = (value: string | number, width = 11) => String(value).padStart(width);
    const kb = (bytes: number | undefined) => (bytes === undefined ? '-' : (bytes / 1024).toFixed(1));
    const lines = [
      '',
      `${'per request'.padEnd(27)}${column('allocated KB', 13)}${column('expected')}${column(`÷ ${file.baseline.commit}`)}` +
        `${column('promoted KB', 13)}${column('CPU µs', 8)}${withFloor ? `${column('floor KB')}${column('floor µs', 9)}` : ''}`,
      ...Object.entries(costs).map(([name, cost]) => {
        const before = file.baseline.allocatedBytes[name];
        return (
          `${name.padEnd(27)}${column(kb(cost.allocatedBytes), 13)}${column(kb(file.expected[name]?.allocatedBytes))}` +
          `${column(before ? (cost.allocatedBytes / before).toFixed(2) : '-')}${column(kb(cost.promotedBytes), 13)}${column(cost.cpuMicros, 8)}` +
          (withFloor ? `${column(kb(floorCosts[name]?.allocatedBytes))}${column(floorCosts[name]?.cpuMicros ?? '-', 9)}` : '')
        );
      }),
      '',
    ];
    process.stdout.write(lines.join('\n'));
    if (file.node.split('.')[0] !== process.version.split('.')[0])
      process.stdout.write(`note: ${EXPECTED_FILE} was measured on node ${file.node}; allocation differs between V8 versions\n`);
    const checks = Object.entries(costs).map(([name, { allocatedBytes }]) => {
      const expected = file.expected[name]?.allocatedBytes;
      const most = expected === undefined ? 0 : Math.round(expected * (1 + TOLERANCE));
      return {
        what: `${name}: ${allocatedBytes} bytes allocated per request, expected ${expected ?? '(none)'}, at most ${most}`,
        ok: expected !== undefined && allocatedBytes <= most,
      };
    });
    for (const check of checks) process.stdout.write(`${check.ok ? 'ok  ' : 'MISS'} ${check.what}\n`);

    const report = {
      date: new Date().toISOString(),
      machine: os.cpus()[0]?.model,
      node: process.version,
      flags,
      costs,
      floor: floorCosts,
      checks,
    };
    await writeFile('bench/results/alloc.json', `${JSON.stringify(report, null, 2)}\n`);
    if (record) {
      await writeFile(EXPECTED_FILE, `${JSON.stringify({ ...file, node: process.version, flags, expected: costs }, null, 2)}\n`);
      process.stdout.write(`recorded in ${EXPECTED_FILE}: say why in its "about" and the commit\n`);
    } else process.exitCode = checks.every((check) => check.ok) ? 0 : 1;
  } finally {
    await pool.end();
    await admin.query(`DROP DATABASE \`${databaseName}\``);
    await admin.end();
  }
}

await main();
