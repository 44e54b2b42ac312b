/**
 * npm run bench:cluster
 *
 * The cost of the three-node Galera cluster (docker-compose.cluster.yml) against the single MySQL
 * server (docker-compose.yml): both stacks up side by side on this machine from the same images,
 * the same load through each one's nginx, alternately, round by round (bench/load.ts): listPets
 * (limit 20) and createPet. Prints requests per second, p50 and p99 of each, their ratios, and the
 * peak resident memory of every database node and api replica; writes bench/results/cluster.json.
 *
 * Needs the Docker engine and the images (`npm run test:cluster:local` builds the stand-ins; with
 * deploy/local-images/images.env in the environment, as `npm run bench:cluster:local` does).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { ComposeStack, peakMemory } from '../test/containers/support/compose-stack.js';
import { freePort } from '../test/e2e/support/free-port.js';
import { alternate, CONNECTIONS, round, ROUNDS, type Scenario, SECONDS, WRK } from './load.js';

const SEEDED_PETS = 1_000;

interface Stack {
  readonly name: 'single' | 'cluster';
  readonly stack: ComposeStack;
  readonly databases: readonly string[];
}

/** The one API key of both stacks, so that the same load goes to each. */
const KEY = `bench_${randomBytes(24).toString('hex')}`;

async function up({ stack }: Stack): Promise<void> {
  await stack.prepare({ API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '1000000', MYSQL_ROOT_PASSWORD: randomBytes(16).toString('hex') });
  await stack.compose(['up', '--detach', '--wait', '--build'], { timeoutMs: 1_200_000 });
}

/** SEEDED_PETS pets through the API, 20 at a time, so that listing reads real pages. */
async function seed({ stack }: Stack): Promise<void> {
  for (let i = 0; i < SEEDED_PETS; i += 20) {
    const creates = Array.from({ length: 20 }, (_, j) =>
      fetch(`${stack.base}/v1/pets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `seed-${i + j}`, categoryId: 1 + ((i + j) % 5) }),
      }).then((response) => {
        if (response.status !== 201) throw new Error(`seeding ${stack.project}: ${response.status}`);
      }),
    );
    await Promise.all(creates);
  }
}

/** The high-water mark of each database node's and api replica's main process, in MB. */
async function memory({ stack, databases }: Stack): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  for (const service of [...databases, 'api']) {
    const ids = await stack.containers(service);
    for (const [i, id] of ids.entries()) figures[ids.length > 1 ? `${service}-${i + 1}` : service] = (await peakMemory(id)).processMb;
  }
  return figures;
}

async function main(): Promise<void> {
  const stacks: Stack[] = [
    { name: 'single', stack: new ComposeStack(await freePort()), databases: ['mysql'] },
    { name: 'cluster', stack: new ComposeStack(await freePort(), ['docker-compose.cluster.yml']), databases: ['db1', 'db2', 'db3'] },
  ];
  try {
    process.stderr.write('bench: starting both stacks\n');
    for (const stack of stacks) await up(stack);
    for (const stack of stacks) await seed(stack);
    process.stderr.write(
      `bench: ${os.cpus().length} CPUs, node ${process.version}; ${ROUNDS} rounds of ${SECONDS} s per stack and ` +
        `operation, ${CONNECTIONS} connections, ${WRK ? 'wrk' : 'autocannon'}, through each stack's nginx\n`,
    );
    const scenarios: Scenario[] = [
      { name: 'listPets', method: 'GET', path: '/v1/pets?limit=20' },
      { name: 'createPet', method: 'POST', path: '/v1/pets', body: JSON.stringify({ name: 'Bench', categoryId: 1 }) },
    ];
    const results: Record<string, Record<string, unknown>> = {};
    for (const scenario of scenarios) {
      const figures = await alternate(
        stacks.map(({ name, stack }) => ({ name, base: stack.base })),
        scenario,
        KEY,
      );
      const { single, cluster } = figures;
      results[scenario.name] = {
        single,
        cluster,
        throughputRatio: round(cluster.requestsPerSecond / single.requestsPerSecond),
        p99Ratio: round(cluster.p99Ms / single.p99Ms),
      };
    }
    const peakMemoryMb = Object.fromEntries(await Promise.all(stacks.map(async (stack) => [stack.name, await memory(stack)])));
    const report = {
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
      settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, load: WRK ? 'wrk' : 'autocannon', seededPets: SEEDED_PETS },
      results,
      peakMemoryMb,
    };
    for (const [name, result] of Object.entries(results))
      process.stdout.write(
        `${name}: cluster/single throughput ${String(result.throughputRatio)}, p99 ${String(result.p99Ratio)} ` +
          `${JSON.stringify({ single: result.single, cluster: result.cluster })}\n`,
      );
    process.stdout.write(`peak memory (MB): ${JSON.stringify(peakMemoryMb)}\n`);
    await mkdir('bench/results', { recursive: true });
    await writeFile('bench/results/cluster.json', `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    for (const { stack } of stacks) await stack.down();
  }
}

await main();
