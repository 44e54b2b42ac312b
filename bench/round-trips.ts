/**
 * npm run bench:round-trips [-- DIR]
 *
 * What a write costs the database: round trips and statements per request, for createPet (with and
 * without an Idempotency-Key), placeOrder, updatePet (a rename) and a PATCH that changes nothing
 * (patchUnchanged); and what an instance at rest sends a second, a stored
 * key in use (its recheck of the keys it trusts). The service (this checkout, or the build in DIR, as
 * its start:prod runs it) talks to MySQL (TEST_DATABASE_URL's server) through a proxy here that
 * counts the commands it sends (a command is a round trip: the service waits for its answer) and the
 * statements in them, by their first word (a command may carry several: a transaction in one round
 * trip). Only the service's own traffic is counted, and the counts do not depend on timing.
 */
import path from 'node:path';
import mysql from 'mysql2/promise';
import { startCountingProxy } from '../test/e2e/support/counting-proxy.js';
import { freePort } from '../test/e2e/support/free-port.js';
import { seedPets, storeBenchKey } from './fixtures.js';
import { productionCommand, ready, serviceEnvironment, start } from './processes.js';

const REQUESTS = 1_000;
const server = (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');

async function main(): Promise<void> {
  const dir = path.resolve(process.argv[2] ?? '.');
  const databaseName = `petstore_trips_${Date.now()}`;
  const admin = await mysql.createConnection({ uri: server });
  await admin.query(`CREATE DATABASE \`${databaseName}\` CHARACTER SET utf8mb4`);
  const target = new URL(server);
  const proxy = await startCountingProxy(target);
  const proxied = new URL(server);
  proxied.host = `127.0.0.1:${proxy.port}`;
  const port = await freePort();
  // Without delivery: what the request itself costs (the deliverer's fan-out is measured by --webhooks).
  const environment = serviceEnvironment(`${proxied.href.replace(/\/+$/, '')}/${databaseName}`, port, { WEBHOOK_DELIVERY: 'false' });
  const service = start(productionCommand(dir), environment, dir);
  const pool = mysql.createPool({ uri: `${server}/${databaseName}`, connectionLimit: 2 });
  try {
    const base = `http://127.0.0.1:${port}`;
    await ready(`${base}/health/live`, service);
    const key = await storeBenchKey(pool);
    // Every third seeded pet is available (ids from 1): each order holds one of its own (issue 46).
    await seedPets(pool, 0, 3 * REQUESTS);
    const requests: [string, (i: number) => RequestInit & { path: string }][] = [
      ['createPet', () => ({ path: '/v1/pets', body: '{"name":"Counted","categoryId":7}' })],
      [
        'createPet Idempotency-Key',
        (i) => ({ path: '/v1/pets', body: '{"name":"Counted","categoryId":7}', headers: { 'Idempotency-Key': `count-${i}` } }),
      ],
      ['placeOrder', (i) => ({ path: '/v1/store/orders', body: `{"petId":${1 + 3 * i},"quantity":1}` })],
      // Pending pets, which no order holds: each renamed, then patched to the name it now has.
      ['updatePet', (i) => ({ method: 'PATCH', path: `/v1/pets/${2 + 3 * i}`, body: `{"name":"Renamed ${i}"}` })],
      ['patchUnchanged', (i) => ({ method: 'PATCH', path: `/v1/pets/${2 + 3 * i}`, body: `{"name":"Renamed ${i}"}` })],
    ];
    process.stdout.write(`per request, ${REQUESTS} requests each (${dir})\n`);
    for (const [name, request] of requests) {
      // Let the deliverer's own work (fan-out of the events just made) finish before counting.
      await new Promise((settle) => setTimeout(settle, 1_500));
      const before = proxy.statements();
      const commandsBefore = proxy.commands();
      for (let i = 0; i < REQUESTS; i++) {
        const { path: requestPath, headers, ...init } = request(i);
        const response = await fetch(`${base}${requestPath}`, {
          method: 'POST',
          ...init,
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...(headers as Record<string, string>) },
        });
        if (response.status !== (init.method === 'PATCH' ? 200 : 201))
          throw new Error(`${name}: ${response.status} ${await response.text()}`);
      }
      const trips = (proxy.commands() - commandsBefore) / REQUESTS;
      const statements = [...proxy.statements()]
        .map(([kind, count]) => [kind, (count - (before.get(kind) ?? 0)) / REQUESTS] as const)
        .filter(([, count]) => count >= 0.005);
      process.stdout.write(
        `${name.padEnd(27)} round trips ${trips.toFixed(2)}; statements ${statements.map(([counter, count]) => `${counter} ${count.toFixed(2)}`).join(', ')}\n`,
      );
    }
    // At rest, a stored key in use: what the instance sends on its own (the recheck of the keys it trusts).
    const idleSeconds = 10;
    const commandsBefore = proxy.commands();
    await new Promise((settle) => setTimeout(settle, idleSeconds * 1_000));
    process.stdout.write(
      `${'at rest, a key in use'.padEnd(27)} round trips ${((proxy.commands() - commandsBefore) / idleSeconds).toFixed(2)} a second\n`,
    );
  } finally {
    service.kill('SIGTERM');
    await pool.end();
    await admin.query(`DROP DATABASE \`${databaseName}\``);
    await admin.end();
  }
}

await main();
