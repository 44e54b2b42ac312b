/**
 * npm run bench [-- --scale] [-- --slow-clients]
 *
 * Measures the service (dist/src/main.js, production settings) against two yardsticks, each on its
 * own MySQL database on TEST_DATABASE_URL's server with the same 10,000 pets:
 * - the stack floor (bench/stack-floor.ts): NestJS on Express with one TypeORM statement per
 *   request and nothing else; the targets (issue 40) are ≥ 0.45× its throughput on the reads,
 *   ≥ 0.30× on createPet (which also writes its event), ≤ 3× its p99, and 256 MB peak RSS;
 * - the raw baseline (bench/baseline.ts): node:http and mysql2, the machine's physical limit,
 *   printed beside as a ratio.
 * listPets (limit 20, with and without a status filter), createPet and getPet (and updatePet and
 * patchUnchanged, measured without a target), on all three
 * alternately, round by round, with the same load (bench/load.ts). Prints requests per second, p50
 * and p99, the service's peak resident memory and every ratio against its target; writes the
 * figures to bench/results/latest.json.
 *
 * --scale also seeds 1,000,000 pets and compares listPets with a status filter, and a page deep
 * in the cursor chain, against the same at 10,000 pets; it prints MySQL's query plans.
 *
 * --slow-clients also starts the service twice more, with glibc's allocator (as npm start runs it)
 * and with the image's jemalloc when the machine has libjemalloc2, and attacks each with 10,000
 * connections from 10,000 addresses that dribble their headers for 20 s (bench/slow-clients.ts):
 * resident memory before, at its peak, and for 60 s after; the first also with 5,500 such
 * connections from one address. Another client's requests meanwhile must be answered (95%).
 *
 * --webhooks also measures webhook delivery from one replica (bench/webhooks.ts): createPet with an
 * endpoint subscribed against none, the first attempt's delay at 200 creates/s, deliveries a second,
 * and the drain after the receiver was down BENCH_WEBHOOK_DOWN_SECONDS (600).
 *
 * --against DIR also runs another build of the service (a checkout of another commit, built, with its
 * node_modules) on the same database, loaded in the same alternated rounds: an A/B in one run.
 * --against-flags "FLAGS" does the same with this build under other node flags (a second process
 * beside the one with start:prod's; `none` for V8's defaults), to choose them by measurement.
 * --against-conventional does it with bench/conventional.ts, the same operations written as NestJS's
 * documentation writes a service, and says how many times its throughput the service serves.
 *
 * --gc also traces the service's garbage collections (`--trace-gc-nvp`) and says, per operation,
 * how many it made, how long they paused it, and their share of its loaded time.
 *
 * --check (npm run bench:check) reports the service's throughput against the floor's, and fails only
 * on a collapse no machine explains: a ratio below half the one in bench/expected.json. The ratios
 * move by a fifth between runs of the same code and with the processor (the floor gains more from a
 * faster one than the service does), so CI's guard against eroding cost is npm run bench:alloc.
 *
 * Every server's stdout is a pipe the bench reads, as a container runtime reads it: the request log
 * costs what it costs in production.
 *
 * BENCH_SECONDS (10 per run), BENCH_ROUNDS (3), BENCH_CONNECTIONS (16), BENCH_LOAD (wrk | autocannon); BENCH_NODE_FLAGS
 * (the service's node flags instead of start:prod's; `none` for V8's defaults); BENCH_OPERATIONS (a comma-separated
 * list of the operations to load, e.g. `getPet,createPet`; all by default).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import {
  alternate,
  CONNECTIONS,
  type Figures,
  lastRounds,
  load,
  median,
  medians,
  round,
  ROUNDS,
  type Scenario,
  SECONDS,
  SEED,
  WRK,
} from './load.js';
import { seedPetMetadata, seedPets, storeBenchKey, storeBenchSandbox } from './fixtures.js';
import { Environment } from '../src/environments/environment.js';
import { type Collection, CollectionTrace } from './gc-trace.js';
import { commandWithFlags, memory, productionCommand, ready, serviceEnvironment, start } from './processes.js';
import { slowClientAttack, type SlowClientFigures } from './slow-clients.js';
import { webhookBench } from './webhooks.js';
import { PetsRepository } from '../src/pets/pets.repository.js';
import { explainReads, planLines } from './explain.js';
import { requestLogScaleRun } from './request-log-scale.js';
import { encodeCursor } from '../src/pagination/cursor.js';
import { freePort } from '../test/e2e/support/free-port.js';

const SCALE = 1_000_000;
/** sandboxRatio: a sandbox's operation as fast as live's, within the 5% two runs of one operation move by on our machines. */
const TARGETS = { readFloorRatio: 0.45, createFloorRatio: 0.3, floorP99Ratio: 3, peakRssMb: 256, scaleRatio: 1.2, sandboxRatio: 0.95 };
/** The throughput an operation must reach against the floor's: a create also writes its event. */
const floorRatioTarget = (operation: string) => (operation.startsWith('createPet') ? TARGETS.createFloorRatio : TARGETS.readFloorRatio);
/** Operations measured and reported, with no target of their own (issue 46: a PATCH reads, writes and records its event). */
const MEASURED_ONLY = new Set(['updatePet', 'patchUnchanged']);
/** What an operation needs of the service's pets before it is loaded: patchUnchanged names each pet as it is named. */
const PREPARED: Record<string, string> = { patchUnchanged: "UPDATE pets SET name = 'Unchanged'" };
const server = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');

/** BENCH_OPERATIONS: the operations to load (all when unset), to repeat an A/B of one or two of them. */
const OPERATIONS = process.env.BENCH_OPERATIONS?.split(',').map((name) => name.trim());

/** bench/expected.json: the ratios to the floor that --check holds the service to. */
const EXPECTED_FILE = 'bench/expected.json';
/** How far below its expected ratio an operation may fall before --check fails: a collapse, not noise. */
const CHECK_TOLERANCE = 0.5;

interface Target {
  /** 'large': --scale's service on a million pets in each environment. */
  name: 'service' | 'floor' | 'baseline' | 'before' | 'large';
  base: string;
  process: ChildProcess;
}

async function main(): Promise<void> {
  const scale = process.argv.includes('--scale');
  const slowClients = process.argv.includes('--slow-clients');
  const webhooks = process.argv.includes('--webhooks');
  const check = process.argv.includes('--check');
  const gc = process.argv.includes('--gc');
  const againstAt = process.argv.indexOf('--against');
  const against = againstAt > 0 ? path.resolve(process.argv[againstAt + 1]) : undefined;
  const flagsAt = process.argv.indexOf('--against-flags');
  const againstFlags = flagsAt > 0 ? process.argv[flagsAt + 1] : undefined;
  const conventional = process.argv.includes('--against-conventional');
  const againstWhat = conventional ? 'bench/conventional.ts' : againstFlags === undefined ? against : `node ${againstFlags}`;
  if (against && !existsSync(path.join(against, 'dist/src/main.js')))
    throw new Error(`--against ${against}: no dist/src/main.js there (build it)`);
  const databaseName = `petstore_bench_${Date.now()}`;
  const floorDatabaseName = `${databaseName}_floor`;
  const admin = await mysql.createConnection({ uri: server });
  await admin.query(`CREATE DATABASE \`${databaseName}\` CHARACTER SET utf8mb4`);
  await admin.query(`CREATE DATABASE \`${floorDatabaseName}\` CHARACTER SET utf8mb4`);
  const databaseUrl = `${server}/${databaseName}`;
  const pool = mysql.createPool({ uri: databaseUrl, connectionLimit: 4 });
  const children: ChildProcess[] = [];
  try {
    const servicePort = await freePort();
    // As npm start and the Dockerfile run it, memory bounds included: package.json's start:prod.
    const serviceProcess = start([...(gc ? ['--trace-gc-nvp'] : []), ...productionCommand()], serviceEnvironment(databaseUrl, servicePort));
    const collections = gc ? new CollectionTrace(serviceProcess.stdout!) : undefined;
    children.push(serviceProcess);
    await ready(`http://127.0.0.1:${servicePort}/health/live`, serviceProcess);

    const key = await storeBenchKey(pool);
    await seedPets(pool, 0, SEED);
    // A sandbox's pets after live's (ids SEED+1 to 2*SEED), and its key: its operations, measured as live's are.
    const sandbox = await storeBenchSandbox(pool, 'operations');
    const sandboxKey = await storeBenchKey(pool, sandbox);
    await seedPets(pool, SEED, 2 * SEED, [sandbox]);
    // The floor's own copy of the same table and rows, so that its inserts do not grow the service's.
    await admin.query(`CREATE TABLE \`${floorDatabaseName}\`.pets LIKE \`${databaseName}\`.pets`);
    await admin.query(`INSERT INTO \`${floorDatabaseName}\`.pets SELECT * FROM \`${databaseName}\`.pets`);

    const targets: Target[] = [{ name: 'service', base: `http://127.0.0.1:${servicePort}`, process: serviceProcess }];
    if (!check) {
      const baselinePort = await freePort();
      const baselineProcess = start(['--import', 'tsx', 'bench/baseline.ts'], {
        DATABASE_URL: databaseUrl,
        BASELINE_PORT: String(baselinePort),
      });
      children.push(baselineProcess);
      await ready(`http://127.0.0.1:${baselinePort}/v1/pets`, baselineProcess);
      targets.push({ name: 'baseline', base: `http://127.0.0.1:${baselinePort}`, process: baselineProcess });
    }
    if (againstWhat) {
      // The other build on the same database (its migrations are the same or a prefix of ours), this
      // one under other node flags, or the conventionally written service.
      const beforePort = await freePort();
      const command = againstFlags === undefined ? productionCommand(against) : commandWithFlags(againstFlags);
      const beforeProcess = conventional
        ? start(['--import', 'tsx', 'bench/conventional.ts'], { DATABASE_URL: databaseUrl, CONVENTIONAL_PORT: String(beforePort) })
        : start(command, serviceEnvironment(databaseUrl, beforePort), against);
      children.push(beforeProcess);
      await ready(`http://127.0.0.1:${beforePort}/${conventional ? 'v1/pets' : 'health/live'}`, beforeProcess);
      targets.push({ name: 'before', base: `http://127.0.0.1:${beforePort}`, process: beforeProcess });
    }
    const floorPort = await freePort();
    const floorProcess = start(['--import', 'tsx', 'bench/stack-floor.ts'], {
      DATABASE_URL: `${server}/${floorDatabaseName}`,
      FLOOR_PORT: String(floorPort),
    });
    children.push(floorProcess);
    await ready(`http://127.0.0.1:${floorPort}/v1/pets`, floorProcess);

    targets.splice(1, 0, { name: 'floor', base: `http://127.0.0.1:${floorPort}`, process: floorProcess });
    const allScenarios: Scenario[] = [
      { name: 'listPets', method: 'GET', path: '/v1/pets?limit=20' },
      { name: 'listPets status=sold', method: 'GET', path: '/v1/pets?limit=20&status=sold' },
      {
        name: 'createPet',
        method: 'POST',
        path: '/v1/pets',
        body: JSON.stringify({ name: 'Benchmark', categoryId: 7, status: 'pending' }),
      },
      { name: 'getPet', method: 'GET', path: '/v1/pets/', randomId: true },
      // A rename to a name of its own each time: the pet read and held, changed, and its pet.updated
      // event recorded (one name for all made every PATCH after the first pass a change of nothing).
      { name: 'updatePet', method: 'PATCH', path: '/v1/pets/', randomId: true, body: JSON.stringify({ name: 'Renamed RANDOM' }) },
      // A PATCH to the name every pet has (PREPARED): an unconditional change of nothing, answered from a read.
      { name: 'patchUnchanged', method: 'PATCH', path: '/v1/pets/', randomId: true, body: JSON.stringify({ name: 'Unchanged' }) },
    ];
    // In a sandbox: as fast as live's (issue 58); 1.5.x (--against) reads its rows as live's, the same work.
    const inSandbox = { key: sandboxKey, idOffset: SEED };
    allScenarios.push(
      { name: 'listPets sandbox', method: 'GET', path: '/v1/pets?limit=20', ...inSandbox },
      {
        name: 'createPet sandbox',
        method: 'POST',
        path: '/v1/pets',
        body: JSON.stringify({ name: 'Benchmark', categoryId: 7, status: 'pending' }),
        ...inSandbox,
      },
      { name: 'getPet sandbox', method: 'GET', path: '/v1/pets/', randomId: true, ...inSandbox },
    );
    const scenarios = OPERATIONS ? allScenarios.filter(({ name }) => OPERATIONS.includes(name)) : allScenarios;
    if (scenarios.length === 0) throw new Error(`BENCH_OPERATIONS names none of ${allScenarios.map(({ name }) => name).join(', ')}`);

    process.stderr.write(
      `bench: ${os.cpus().length} CPUs (${os.cpus()[0]?.model}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}; ` +
        `${ROUNDS} rounds of ${SECONDS} s per target and operation, ${CONNECTIONS} connections, ${WRK ? 'wrk' : 'autocannon'}\n`,
    );
    let peakRssUnderLoad = 0;
    let beforePeakRss = 0;
    const before = targets.find(({ name }) => name === 'before')?.process;
    const sampler = setInterval(() => {
      peakRssUnderLoad = Math.max(peakRssUnderLoad, memory(serviceProcess.pid!).rssMb);
      if (before) beforePeakRss = Math.max(beforePeakRss, memory(before.pid!).rssMb);
    }, 250);
    const results: Record<string, Record<string, Figures>> = {};
    /** Each operation's ratios of a target's throughput to the floor's, paired round by round: their medians. */
    const pairedRatios: Record<string, Record<string, number>> = {};
    /** With --against: each operation's service throughput over the other build's, paired round by round, their median. */
    const overBefore: Record<string, number> = {};
    const collectionsBy: Record<string, Collection[]> = {};
    for (const scenario of scenarios) {
      const first = collections?.collections.length ?? 0;
      if (PREPARED[scenario.name]) await pool.query(PREPARED[scenario.name]);
      results[scenario.name] = await alternate(targets, scenario, key);
      if (collections) collectionsBy[scenario.name] = collections.collections.slice(first);
      const floorRounds = lastRounds.floor.map((f) => f.requestsPerSecond);
      pairedRatios[scenario.name] = Object.fromEntries(
        targets.map(({ name }) => [name, round(median(lastRounds[name].map((f, r) => f.requestsPerSecond / floorRounds[r])))]),
      );
      if (lastRounds.before) {
        overBefore[scenario.name] = round(
          median(lastRounds.service.map((f, r) => f.requestsPerSecond / lastRounds.before[r].requestsPerSecond)),
        );
      }
      process.stderr.write(`bench: ${scenario.name} done\n`);
    }
    clearInterval(sampler);
    floorProcess.kill('SIGTERM');
    const serviceMemory = memory(serviceProcess.pid!);

    const comparison = Object.entries(results).map(([operation, { service, floor, baseline, before }]) => ({
      operation,
      service,
      floor,
      baseline,
      before,
      floorRatio: pairedRatios[operation].service,
      floorP99Ratio: round(service.p99Ms / floor.p99Ms),
      rawRatio: baseline ? round(service.requestsPerSecond / baseline.requestsPerSecond) : undefined,
      beforeFloorRatio: before ? pairedRatios[operation].before : undefined,
      beforeFloorP99Ratio: before ? round(before.p99Ms / floor.p99Ms) : undefined,
      overBefore: overBefore[operation],
    }));
    const cell = (value: number | string | undefined, width: number) => String(value ?? '-').padStart(width);
    const fixed = (value: number | undefined) => value?.toFixed(2);
    const rows = comparison.map(
      (c) =>
        `${c.operation.padEnd(21)}${cell(c.service.requestsPerSecond, 8)}${cell(c.floor.requestsPerSecond, 7)}${cell(c.baseline?.requestsPerSecond, 7)}` +
        `${cell(fixed(c.floorRatio), 7)}${cell(fixed(c.rawRatio), 6)}   ${cell(c.service.p99Ms, 7)}${cell(c.floor.p99Ms, 7)}${cell(c.baseline?.p99Ms, 7)}${cell(fixed(c.floorP99Ratio), 7)}` +
        (c.before
          ? `   before: ${cell(c.before.requestsPerSecond, 6)}${cell(fixed(c.beforeFloorRatio), 6)}${cell(c.before.p99Ms, 7)}${cell(fixed(c.beforeFloorP99Ratio), 6)}` +
            `${cell(fixed(c.overBefore), 8)}`
          : '') +
        (Object.values(results[c.operation]).some((f) => f.non2xx + f.errors) ? '   (non-2xx or errors!)' : ''),
    );
    process.stdout.write(
      [
        '',
        `${'operation'.padEnd(21)}${'req/s: service  floor    raw  /floor  /raw'}   ${'p99 ms:  svc  floor    raw /floor'}` +
          (againstWhat ? `   ${'before: req/s /floor  p99 /floor  svc/bef'} (${againstWhat})` : ''),
        ...rows,
        '',
        `/floor: the median of the rounds' ratios (each round's service against the same round's floor)` +
          (againstWhat ? `; svc/bef: the same of the service against the other build` : ''),
        `service resident memory: peak under load ${peakRssUnderLoad} MB (high-water mark ${serviceMemory.peakRssMb} MB)` +
          (before ? `; before: ${beforePeakRss} MB` : ''),
        ...Object.entries(collectionsBy).map(([operation, found]) => describeCollections(operation, found)),
        ...(conventional
          ? comparison.map(
              (c) =>
                `${c.operation}: the service serves ${fixed(c.floorRatio / c.beforeFloorRatio!)}x the conventional service's throughput`,
            )
          : []),
        '',
      ].join('\n'),
    );
    const checks = check
      ? guardChecks(comparison)
      : [
          ...comparison
            .filter((c) => !MEASURED_ONLY.has(c.operation))
            .map((c) => ({
              what: `${c.operation} throughput ${c.floorRatio}x the stack floor's (>= ${floorRatioTarget(c.operation)}; raw ratio ${c.rawRatio})`,
              ok: c.floorRatio >= floorRatioTarget(c.operation),
            })),
          ...comparison.map((c) => ({
            what: `${c.operation} p99 ${c.floorP99Ratio}x the stack floor's (<= ${TARGETS.floorP99Ratio})`,
            ok: c.floorP99Ratio <= TARGETS.floorP99Ratio,
          })),
        ];
    // A sandbox's operation against live's, each by its ratio to the floor of its own rounds: a target
    // of the full bench; --check (CI) guards only against a collapse, which its floor ratios cover.
    for (const c of check ? [] : comparison.filter(({ operation }) => operation.endsWith(' sandbox'))) {
      const live = comparison.find(({ operation }) => operation === c.operation.replace(/ sandbox$/, ''));
      if (!live) continue;
      const ratio = round(c.floorRatio / live.floorRatio);
      checks.push({
        what: `${c.operation}: ${ratio}x live's throughput, each against its rounds' floor (>= ${TARGETS.sandboxRatio})`,
        ok: ratio >= TARGETS.sandboxRatio,
      });
    }
    checks.push({
      what: `peak resident memory under load ${peakRssUnderLoad} MB <= ${TARGETS.peakRssMb} MB`,
      ok: peakRssUnderLoad <= TARGETS.peakRssMb,
    });

    let scaleFigures: unknown;
    if (scale) {
      const outcome = await scaleRun(pool, databaseUrl, targets[0], key);
      const requestLog = await requestLogScaleRun(pool, databaseUrl, targets[0], key);
      scaleFigures = { ...outcome.figures, requestLog: requestLog.figures };
      checks.push(...outcome.checks, ...requestLog.checks);
    }

    let webhookFigures: unknown;
    if (webhooks) {
      const outcome = await webhookBench(server);
      webhookFigures = outcome.figures;
      checks.push(...outcome.checks);
    }

    let slowClientFigures: unknown;
    if (slowClients) {
      const outcome = await slowClientRun(databaseUrl, key);
      slowClientFigures = outcome.figures;
      checks.push(...outcome.checks);
    }

    for (const check of checks) process.stdout.write(`${check.ok ? 'ok  ' : 'MISS'} ${check.what}\n`);
    await mkdir('bench/results', { recursive: true });
    const report = {
      date: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
      },
      settings: {
        seconds: SECONDS,
        rounds: ROUNDS,
        connections: CONNECTIONS,
        load: WRK ? 'wrk' : 'autocannon',
        seededPets: SEED,
        check,
        against,
      },
      comparison,
      memory: { service: { ...serviceMemory, peakRssUnderLoadMb: peakRssUnderLoad } },
      scale: scaleFigures,
      slowClients: slowClientFigures,
      webhooks: webhookFigures,
      checks,
    };
    const file = check ? 'bench/results/check.json' : 'bench/results/latest.json';
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`figures written to ${file}\n`);
    process.exitCode = checks.every((check) => check.ok) ? 0 : 1;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await pool.end();
    await admin.query(`DROP DATABASE \`${databaseName}\``);
    await admin.query(`DROP DATABASE \`${floorDatabaseName}\``);
    await admin.end();
  }
}

/**
 * --gc: the service's collections while an operation loaded it (its rounds, with the other targets'
 * between them, when it idles): how many, how long they stopped it, and what share of its loaded
 * time they took, to tell whether its p99 is the collector's.
 */
function describeCollections(operation: string, found: readonly Collection[]): string {
  const of = (kind: string) => found.filter((collection) => collection.kind === kind).map(({ pauseMs }) => pauseMs);
  const [scavenges, markCompacts] = [of('s'), of('mc')];
  const total = found.reduce((sum, { pauseMs }) => sum + pauseMs, 0);
  const loadedMs = (ROUNDS * SECONDS + 2) * 1000;
  const summary = (pauses: number[]) =>
    pauses.length === 0
      ? 'none'
      : `${pauses.length} (mean ${round(total && pauses.reduce((a, b) => a + b, 0) / pauses.length, 1)} ms, max ${Math.max(...pauses)} ms)`;
  return `gc under ${operation}: scavenges ${summary(scavenges)}, mark-compacts ${summary(markCompacts)}; ${round((100 * total) / loadedMs, 1)}% of its loaded time`;
}

/**
 * --check: each operation's ratio to the floor against the one committed in bench/expected.json,
 * which changes only on purpose (raised when the service got faster; lowered only with a reason).
 */
function guardChecks(comparison: readonly { operation: string; floorRatio: number }[]): { what: string; ok: boolean }[] {
  const expected = (JSON.parse(readFileSync(EXPECTED_FILE, 'utf8')) as { floorRatio: Record<string, number> }).floorRatio;
  return comparison.map(({ operation, floorRatio }) => {
    const least = round(expected[operation] * (1 - CHECK_TOLERANCE));
    return {
      what: `${operation}: ${floorRatio}x the stack floor's throughput, expected ${expected[operation]} (${EXPECTED_FILE}), at least ${least}`,
      ok: expected[operation] !== undefined && floorRatio >= least,
    };
  });
}

/** Where Debian's libjemalloc2 puts the library; the image preloads it (Dockerfile). */
const JEMALLOC = `/usr/lib/${os.arch() === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu/libjemalloc.so.2`;

/** The image's MALLOC_CONF, read from the Dockerfile so that the bench runs what the image runs. */
function imageMallocConf(): string {
  const conf = /MALLOC_CONF=(\S+)/.exec(readFileSync('Dockerfile', 'utf8'))?.[1];
  if (!conf) throw new Error('the Dockerfile sets no MALLOC_CONF');
  return conf;
}

/** The slow-client attack on a fresh service process per allocator; see the header. */
async function slowClientRun(databaseUrl: string, key: string) {
  const allocators: [string, Record<string, string>][] = [['glibc (npm start)', {}]];
  if (existsSync(JEMALLOC)) allocators.push(['jemalloc (the image)', { LD_PRELOAD: JEMALLOC, MALLOC_CONF: imageMallocConf() }]);
  else process.stderr.write(`bench: no ${JEMALLOC} (Debian's libjemalloc2): the image's allocator is not measured\n`);
  const figures: Record<string, unknown> = {};
  const checks: { what: string; ok: boolean }[] = [];
  for (const [allocator, env] of allocators) {
    const port = await freePort();
    const service = start(productionCommand(), serviceEnvironment(databaseUrl, port, { RATE_LIMIT_PER_MINUTE: '0', ...env }));
    try {
      const base = `http://127.0.0.1:${port}`;
      await ready(`${base}/health/live`, service);
      // Warm, as a service that has been serving: 2,000 listings.
      for (let i = 0; i < 100; i++) {
        await Promise.all(
          Array.from({ length: 20 }, async () =>
            (await fetch(`${base}/v1/pets?limit=20`, { headers: { Authorization: `Bearer ${key}` } })).arrayBuffer(),
          ),
        );
      }
      await new Promise((settle) => setTimeout(settle, 2_000));
      process.stderr.write(`bench: slow clients against the service with ${allocator}\n`);
      const attack = await slowClientAttack(port, service.pid!, key, {
        connections: 10_000,
        addresses: 10_000,
        seconds: 20,
        afterSeconds: 60,
      });
      figures[allocator] = attack;
      const last = attack.afterMb.at(-1)!;
      process.stdout.write(
        `slow clients, ${allocator}: ${attack.opened} connections from ${attack.addresses} addresses opened in ${attack.seconds} s; ` +
          `resident memory ${attack.beforeMb} MB before, ${attack.peakMb} MB at the peak, then ${attack.afterMb.join(' ')} MB every 5 s; ` +
          `another client answered ${attack.otherClient.answered} of ${attack.otherClient.sent}\n`,
      );
      checks.push({
        what: `slow clients, ${allocator}: peak ${attack.peakMb} MB <= ${TARGETS.peakRssMb} MB`,
        ok: attack.peakMb <= TARGETS.peakRssMb,
      });
      checks.push(otherClientCheck(`slow clients from 10,000 addresses, ${allocator}`, attack));
      if (env.LD_PRELOAD) {
        checks.push({
          what: `slow clients, ${allocator}: ${last} MB a minute after, within 10% of ${attack.beforeMb} MB before`,
          ok: last <= attack.beforeMb * 1.1,
        });
      } else {
        // One address holding more slow connections than MAX_CONNECTIONS: its cap keeps the others served.
        const fromOne = await slowClientAttack(port, service.pid!, key, { connections: 5_500, addresses: 1, seconds: 20, afterSeconds: 0 });
        figures[`${allocator}, one address`] = fromOne;
        process.stdout.write(
          `slow clients from one address, ${allocator}: ${fromOne.opened} connections opened in ${fromOne.seconds} s; ` +
            `another client answered ${fromOne.otherClient.answered} of ${fromOne.otherClient.sent}\n`,
        );
        checks.push(otherClientCheck(`slow clients from one address, ${allocator}`, fromOne));
      }
    } finally {
      service.kill('SIGTERM');
    }
  }
  return { figures, checks };
}

/** Another client keeps at least 95% of its requests answered while slow clients attack. */
function otherClientCheck(attack: string, { otherClient }: SlowClientFigures): { what: string; ok: boolean } {
  const { answered, sent } = otherClient;
  return { what: `${attack}: another client answered ${answered} of ${sent}, >= 95%`, ok: sent > 0 && answered >= sent * 0.95 };
}

/**
 * listPets with a status filter, a metadata pair and a deep page, live and in a sandbox: at 10,000
 * pets in each (this run's database), against 1,000,000 live and 1,000,000 in sandboxes (the measured
 * one and another), their ids interleaved batch by batch as environments made at once would be. Every
 * listing must stay flat: its own environment's rows are all it reads, whatever the others hold.
 * The large size has a database and a service process of its own, loaded in the same rounds as the
 * small one, alternately: measured one after the other, minutes apart, the machine's drift alone
 * moved a ratio by a third.
 */
async function scaleRun(pool: mysql.Pool, databaseUrl: string, service: Target, key: string) {
  await pool.query('SET FOREIGN_KEY_CHECKS = 0');
  await pool.query('TRUNCATE TABLE pet_metadata');
  await pool.query('TRUNCATE TABLE pets');
  await pool.query('SET FOREIGN_KEY_CHECKS = 1');
  const sandbox = await storeBenchSandbox(pool, 'scale');
  const other = await storeBenchSandbox(pool, 'scale-other');
  const keys = { live: key, sandbox: await storeBenchKey(pool, sandbox) };
  // 10,000 of each, interleaved by batch.
  await seedPets(pool, 0, 2 * SEED, [0, sandbox]);
  await seedPetMetadata(pool, 0, 2 * SEED);
  await pool.query('ANALYZE TABLE pets, pet_metadata');

  const largeName = `${new URL(databaseUrl).pathname.slice(1)}_scale`;
  const largeUrl = databaseUrl.replace(/[^/]+$/, largeName);
  await pool.query(`CREATE DATABASE \`${largeName}\` CHARACTER SET utf8mb4`);
  const largePool = mysql.createPool({ uri: largeUrl, connectionLimit: 4 });
  const port = await freePort();
  const largeProcess = start(productionCommand(), serviceEnvironment(largeUrl, port));
  try {
    await ready(`http://127.0.0.1:${port}/health/live`, largeProcess);
    const large: Target = { name: 'large', base: `http://127.0.0.1:${port}`, process: largeProcess };
    // The same sandboxes (by id) and keys there: each request goes to both sizes as it is.
    await copyRows(pool, largeName, 'sandboxes', 'id IN (?, ?)', [sandbox, other], true);
    await copyRows(pool, largeName, 'api_keys', "name = 'bench'", [], false);
    process.stderr.write(`bench: seeding ${SCALE.toLocaleString('en')} pets live and ${SCALE.toLocaleString('en')} in sandboxes\n`);
    const seeding = Date.now();
    await seedPets(largePool, 0, 2 * SEED, [0, sandbox]);
    // Half of what follows live's, a quarter the measured sandbox's, a quarter another's.
    await seedPets(largePool, 2 * SEED, 2 * SCALE, [0, sandbox, 0, other]);
    await seedPetMetadata(largePool, 0, 2 * SCALE);
    await largePool.query('ANALYZE TABLE pets, pet_metadata');
    process.stderr.write(`bench: seeded in ${round((Date.now() - seeding) / 1000, 1)} s\n`);

    // A pair one pet in a hundred holds (seedPetMetadata); a deep page starts seven tenths into the
    // environment's pets that hold it, or nine tenths into its pets (of a status): each size's and each
    // environment's own, read from the data, so that every deep page is a whole page. (At 0.9 of the
    // largest id, the small size's live page was past all of live's pets, and empty.)
    const pair = ['batch', 'B7'] as const;
    const byPair = { metadata: JSON.stringify(pair) };
    const scenariosAt = async (on: mysql.Pool, environment: number): Promise<Scenario[]> => {
      const inPair = await idAt(on, 'pet_id', 'pet_metadata', "name = 'batch' AND value = 'B7'", environment, 0.7);
      const sold = await idAt(on, 'id', 'pets', "status = 'sold'", environment, 0.9);
      const any = await idAt(on, 'id', 'pets', 'TRUE', environment, 0.9);
      return [
        { name: 'metadata pair, first page', method: 'GET', path: '/v1/pets?limit=20&metadata[batch]=B7' },
        {
          name: 'metadata pair, deep page',
          method: 'GET',
          path: `/v1/pets?limit=20&metadata[batch]=B7&cursor=${encodeCursor(inPair, 'pets', byPair)}`,
        },
        { name: 'status=sold, first page', method: 'GET', path: '/v1/pets?limit=20&status=sold' },
        {
          name: 'status=sold, deep page',
          method: 'GET',
          path: `/v1/pets?limit=20&status=sold&cursor=${encodeCursor(sold, 'pets', { status: 'sold' })}`,
        },
        { name: 'no filter, deep page', method: 'GET', path: `/v1/pets?limit=20&cursor=${encodeCursor(any, 'pets', {})}` },
      ];
    };
    const figures: Record<string, { small: Figures; large: Figures }> = {};
    for (const [environment, environmentKey, id] of [
      ['live', keys.live, 0],
      ['sandbox', keys.sandbox, sandbox],
    ] as const) {
      const small = await scenariosAt(pool, id);
      const big = await scenariosAt(largePool, id);
      for (let i = 0; i < small.length; i++) {
        figures[`${environment}: ${small[i].name}`] = await alternateSizes(
          { target: service, scenario: small[i] },
          { target: large, scenario: big[i] },
          environmentKey,
        );
      }
    }

    // The statements the service itself sends, from its own repository, explained by MySQL.
    const live = Environment.LIVE;
    const deepSold = await idAt(largePool, 'id', 'pets', "status = 'sold'", 0, 0.9);
    const deepAny = await idAt(largePool, 'id', 'pets', 'TRUE', 0, 0.9);
    const deepInPair = await idAt(largePool, 'pet_id', 'pet_metadata', "name = 'batch' AND value = 'B7'", 0, 0.7);
    const deepSandbox = await idAt(largePool, 'id', 'pets', "status = 'sold'", sandbox, 0.9);
    const plans = await explainReads(largePool, largeUrl, (sql) => new PetsRepository(sql), [
      ['status filter, first page', (pets) => pets.page(live, 'sold', undefined, 0, 21)],
      ['status filter, deep page', (pets) => pets.page(live, 'sold', undefined, deepSold, 21)],
      ['no filter, deep page', (pets) => pets.page(live, undefined, undefined, deepAny, 21)],
      ['metadata pair, deep page', (pets) => pets.page(live, undefined, pair, deepInPair, 21)],
      ['sandbox, status filter, deep page', (pets) => pets.page(Environment.of(sandbox), 'sold', undefined, deepSandbox, 21)],
    ]);
    const lines = [
      '',
      `scale: mean latency at ${SEED.toLocaleString('en')} pets in each environment vs ${SCALE.toLocaleString('en')} live and ` +
        `${SCALE.toLocaleString('en')} in sandboxes, in alternated rounds (ratio, target <= ${TARGETS.scaleRatio})`,
    ];
    const checks = [];
    for (const [name, sizes] of Object.entries(figures)) {
      const ratio = round(sizes.large.meanMs / sizes.small.meanMs);
      lines.push(`  ${name.padEnd(35)} ${sizes.small.meanMs} ms -> ${sizes.large.meanMs} ms  (${ratio})`);
      checks.push({
        what: `at 1,000,000 pets live and 1,000,000 in sandboxes, ${name} takes ${ratio}x its time at 10,000 (<= ${TARGETS.scaleRatio})`,
        ok: ratio <= TARGETS.scaleRatio,
      });
    }
    lines.push('', 'query plans at 1,000,000 pets in each (MySQL EXPLAIN):', ...planLines(plans));
    process.stdout.write(`${lines.join('\n')}\n\n`);
    return { figures: { sizes: figures, plans }, checks };
  } finally {
    largeProcess.kill('SIGTERM');
    await largePool.end();
    await pool.query(`DROP DATABASE IF EXISTS \`${largeName}\``);
  }
}

/** The id (`column`) of `table`'s row `fraction` of the way through an environment's rows that match `where`, in id order. */
async function idAt(pool: mysql.Pool, column: string, table: string, where: string, environment: number, fraction: number) {
  const [[{ count }]] = (await pool.query(`SELECT COUNT(*) AS count FROM ${table} WHERE environment = ? AND ${where}`, [
    environment,
  ])) as unknown as [{ count: number }[]];
  const [[row]] = (await pool.query(
    `SELECT ${column} AS id FROM ${table} WHERE environment = ? AND ${where} ORDER BY ${column} LIMIT 1 OFFSET ?`,
    [environment, Math.floor(Number(count) * fraction)],
  )) as unknown as [{ id: number }[]];
  return Number(row.id);
}

/** Copies a table's rows (`where`) from this run's database into `database`'s, with their ids or without. */
async function copyRows(pool: mysql.Pool, database: string, table: string, where: string, parameters: unknown[], withIds: boolean) {
  const [columns] = (await pool.query(
    "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND extra NOT LIKE '%GENERATED%' ORDER BY ordinal_position",
    [table],
  )) as unknown as [{ name: string }[]];
  const list = columns
    .map(({ name }) => name)
    .filter((name) => withIds || name !== 'id')
    .map((name) => `\`${name}\``)
    .join(', ');
  await pool.query(`INSERT INTO \`${database}\`.${table} (${list}) SELECT ${list} FROM ${table} WHERE ${where}`, parameters);
}

/** One listing at both sizes: a warm-up of each, then ROUNDS rounds in alternating order; the medians. */
async function alternateSizes(
  small: { target: Target; scenario: Scenario },
  large: { target: Target; scenario: Scenario },
  key: string,
): Promise<{ small: Figures; large: Figures }> {
  for (const { target, scenario } of [small, large]) await load(target, scenario, key, 2);
  const runs = { small: [] as Figures[], large: [] as Figures[] };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? (['large', 'small'] as const) : (['small', 'large'] as const);
    for (const size of order) {
      const { target, scenario } = size === 'small' ? small : large;
      runs[size].push(await load(target, scenario, key, SECONDS));
    }
  }
  return { small: medians(runs.small), large: medians(runs.large) };
}

await main();
