/**
 * npm run bench:cpu -- --against DIR
 *
 * Where a request's cost lies, this build against another (DIR: a checkout of another commit,
 * built, with its node_modules), counted in processor time rather than requests a second, which this
 * machine's neighbours move by 15 to 30% between runs: each build on its own MySQL database on
 * TEST_DATABASE_URL's server with the same 10,000 pets, ROUNDS rounds of REQUESTS requests each
 * (CONNECTIONS at a time) alternated between the two (in turn first), and around each round the processor time of
 * the service's process and of the database server's (read from /proc; the server must run on
 * this machine) and the statements it ran (MySQL's `Questions`). Prints, per operation, each
 * build's medians a request and the medians of the rounds' paired ratios (this build over the other).
 * BENCH_OPERATIONS=listPets,getPet,createPet (all three by default) chooses the operations.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { freePort } from '../test/e2e/support/free-port.js';
import { median } from './load.js';
import { productionCommand, ready, serviceEnvironment, start } from './processes.js';

const ROUNDS = 15;
const REQUESTS = 3_000;
const CONNECTIONS = 8;
const PETS = 10_000;
const KEY = 'bench-cpu-split-key';

const OPERATIONS: Record<string, { method: string; path: string; body?: () => string }> = {
  listPets: { method: 'GET', path: '/v1/pets?limit=20' },
  getPet: { method: 'GET', path: `/v1/pets/${PETS / 2}` },
  createPet: { method: 'POST', path: '/v1/pets', body: () => JSON.stringify({ name: 'Split', categoryId: 1 }) },
};

interface Build {
  readonly name: string;
  readonly dir: string;
  readonly database: string;
  port: number;
  pid: number;
}

interface Round {
  readonly serviceUs: number;
  readonly databaseUs: number;
  readonly statements: number;
}

const againstAt = process.argv.indexOf('--against');
if (againstAt < 0 || !process.argv[againstAt + 1]) throw new Error('usage: npm run bench:cpu -- --against DIR');
const builds: Build[] = [
  { name: 'this', dir: '.', database: 'petstore_bench_cpu_this', port: 0, pid: 0 },
  { name: 'other', dir: path.resolve(process.argv[againstAt + 1]), database: 'petstore_bench_cpu_other', port: 0, pid: 0 },
];
const operations = (process.env.BENCH_OPERATIONS ?? Object.keys(OPERATIONS).join(',')).split(',').filter((name) => name in OPERATIONS);
const server = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');
const admin = await mysql.createConnection({ uri: server });
const databasePid = Number(execFileSync('sh', ['-c', 'pgrep -x mariadbd || pgrep -x mysqld'], { encoding: 'utf8' }).split('\n')[0]);

/** A process's processor time so far, user and system, in microseconds (/proc/PID/stat, in clock ticks of 10 ms). */
function processorUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function questions(): Promise<number> {
  const [[row]] = (await admin.query("SHOW GLOBAL STATUS LIKE 'Questions'")) as unknown as [[{ Value: string }]];
  return Number(row.Value);
}

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
function send(port: number, operation: string): Promise<void> {
  const { method, path: url, body } = OPERATIONS[operation];
  return new Promise((done, fail) => {
    const call = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.on('end', () => (response.statusCode! < 300 ? done() : fail(new Error(`${operation}: ${response.statusCode}`))));
      },
    );
    call.on('error', fail);
    call.end(body?.());
  });
}

async function load(port: number, operation: string, count: number): Promise<void> {
  let sent = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (sent++ < count) await send(port, operation);
    }),
  );
}

async function round(build: Build, operation: string): Promise<Round> {
  const [service, database, statements] = [processorUs(build.pid), processorUs(databasePid), await questions()];
  await load(build.port, operation, REQUESTS);
  // One of the statements counted is the reading of Questions itself.
  return {
    serviceUs: (processorUs(build.pid) - service) / REQUESTS,
    databaseUs: (processorUs(databasePid) - database) / REQUESTS,
    statements: ((await questions()) - statements - 1) / REQUESTS,
  };
}

const children = [];
try {
  for (const build of builds) {
    await admin.query(`DROP DATABASE IF EXISTS ${build.database}`);
    await admin.query(`CREATE DATABASE ${build.database} CHARACTER SET utf8mb4`);
    build.port = await freePort();
    const child = start(
      productionCommand(build.dir),
      serviceEnvironment(`${server}/${build.database}`, build.port, { API_KEYS: KEY }),
      build.dir,
    );
    children.push(child);
    build.pid = child.pid!;
    await ready(`http://127.0.0.1:${build.port}/health/live`, child);
    // Only the columns every build's pets have: the environment, where there is one, is live's by default.
    const rows = Array.from({ length: PETS }, (_, i) => [`Seeded ${i}`, (i % 50) + 1, ['available', 'pending', 'sold'][i % 3]]);
    await admin.query(`INSERT INTO ${build.database}.pets (name, category_id, status) VALUES ?`, [rows]);
  }
  for (const operation of operations) {
    for (const build of builds) await load(build.port, operation, REQUESTS);
    const rounds: Record<string, Round[]> = { this: [], other: [] };
    // Each round in the other order than the last (ABBA), so that a drift of the machine within a round favours neither.
    for (let i = 0; i < ROUNDS; i++)
      for (const build of i % 2 ? [...builds].reverse() : builds) rounds[build.name].push(await round(build, operation));
    const paired = (figure: (round: Round) => number) => median(rounds.this.map((round, i) => figure(round) / figure(rounds.other[i])));
    for (const build of builds) {
      const of = (figure: keyof Round) => median(rounds[build.name].map((round) => round[figure]));
      console.log(
        `${operation.padEnd(10)} ${build.name.padEnd(6)} service ${of('serviceUs').toFixed(0)} µs, database ${of('databaseUs').toFixed(0)} µs, ${of('statements').toFixed(2)} statements a request`,
      );
    }
    console.log(
      `${operation.padEnd(10)} this/other, paired by round: processor time ${paired((round) => round.serviceUs + round.databaseUs).toFixed(3)} ` +
        `(service ${paired((round) => round.serviceUs).toFixed(3)}, database ${paired((round) => round.databaseUs).toFixed(3)})`,
    );
  }
} finally {
  agent.destroy();
  for (const child of children) child.kill();
  for (const build of builds) await admin.query(`DROP DATABASE IF EXISTS ${build.database}`);
  await admin.end();
}
