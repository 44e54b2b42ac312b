/**
 * npm run bench -- --webhooks: webhook delivery from one replica (the built service, production
 * settings) on a MySQL database of its own, to a receiver in this process on 127.0.0.1.
 * - createPet with one endpoint subscribed against none, alternated round by round (wrk);
 * - the first attempt's delay after the 201, at a steady 200 creates a second;
 * - deliveries a second: a backlog of BACKLOG events written with delivery off, then drained;
 * - an outage: the receiver down for BENCH_WEBHOOK_DOWN_SECONDS (600) while pets are created at
 *   20 a second, on a shortened retry schedule; then how long the backlog takes to drain.
 * Duplicates (a webhook-id received twice) are counted throughout: none are expected.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { freePort } from '../test/e2e/support/free-port.js';
import { load, median, round, ROUNDS, SECONDS, type Scenario } from './load.js';
import { storeBenchKey } from './fixtures.js';
import { memory, productionCommand, ready, serviceEnvironment, start } from './processes.js';

const TARGETS = { firstAttemptP99Ms: 1000, createPetRatio: 0.9, peakRssMb: 256 };
const STEADY_RATE = 200;
const STEADY_SECONDS = 20;
const BACKLOG = 5000;
const OUTAGE_RATE = 20;
const DOWN_SECONDS = Number(process.env.BENCH_WEBHOOK_DOWN_SECONDS ?? 600);
/** Shortened: at once, 5 s, 30 s, then every minute, past the outage. */
const SCHEDULE = [0, 5, 30, ...Array.from({ length: Math.ceil(DOWN_SECONDS / 60) + 2 }, () => 60)].join(',');

export interface WebhookFigures {
  createPet: { withoutRps: number; withRps: number; ratio: number; caughtUpSeconds: number };
  firstAttempt: { rate: number; events: number; p50Ms: number; p99Ms: number; maxMs: number };
  deliveriesPerSecond: number;
  outage: { downSeconds: number; events: number; drainSeconds: number };
  duplicates: number;
  peakRssMb: number;
}

/** The receiver: the first arrival of each webhook-id, and how often one came again; it can go down and come back. */
class Receiver {
  readonly firstSeen = new Map<string, { at: number; petId: number }>();
  duplicates = 0;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(readonly port: number) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async up(): Promise<void> {
    this.server = createServer(async (request, response: ServerResponse) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      const id = String(request.headers['webhook-id']);
      if (this.firstSeen.has(id)) this.duplicates++;
      else
        this.firstSeen.set(id, { at: performance.now(), petId: (JSON.parse(body) as { data: { object: { id: number } } }).data.object.id });
      response.writeHead(204).end();
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  /** Closed: connections are refused until up() again. */
  async down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
    this.server = undefined;
  }

  async until(count: () => boolean, timeoutMs: number): Promise<number> {
    const started = performance.now();
    while (!count()) {
      if (performance.now() - started > timeoutMs) throw new Error(`webhook bench: not delivered within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return performance.now() - started;
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** Creates a pet; answers its id and when the 201 arrived (performance.now()). */
async function createPet(base: string, key: string, name: string): Promise<{ id: number; at: number }> {
  const response = await fetch(`${base}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 7 }),
  });
  const at = performance.now();
  if (response.status !== 201) throw new Error(`webhook bench: createPet answered ${response.status}`);
  return { id: ((await response.json()) as { id: number }).id, at };
}

/** `count` creates at `perSecond`, each sent on its time whatever the ones before are doing (an open loop). */
async function steadyCreates(base: string, key: string, perSecond: number, count: number, name: string) {
  const started = performance.now();
  const sent: Promise<{ id: number; at: number }>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(createPet(base, key, name));
  }
  return Promise.all(sent);
}

export async function webhookBench(server: string): Promise<{ figures: WebhookFigures; checks: { what: string; ok: boolean }[] }> {
  const databaseName = `petstore_bench_hooks_${Date.now()}`;
  const admin = await mysql.createConnection({ uri: server });
  await admin.query(`CREATE DATABASE \`${databaseName}\` CHARACTER SET utf8mb4`);
  const databaseUrl = `${server}/${databaseName}`;
  const pool = mysql.createPool({ uri: databaseUrl, connectionLimit: 2 });
  const receiver = new Receiver(await freePort());
  let service: ChildProcess | undefined;
  let peakRssMb = 0;
  const sampler = setInterval(() => {
    if (service?.pid && service.exitCode === null) peakRssMb = Math.max(peakRssMb, memory(service.pid).rssMb);
  }, 250);
  const servicePort = await freePort();
  const base = `http://127.0.0.1:${servicePort}`;
  const startService = async (deliver: boolean) => {
    service = start(
      productionCommand(),
      serviceEnvironment(databaseUrl, servicePort, {
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
        WEBHOOK_DELIVERY: String(deliver),
      }),
    );
    await ready(`${base}/health/live`, service);
  };
  const stopService = async () => {
    const stopping = service!;
    const exited = new Promise((resolve) => stopping.once('exit', resolve));
    stopping.kill('SIGTERM');
    await exited;
  };
  try {
    await receiver.up();
    await startService(true);
    const key = await storeBenchKey(pool);
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status >= 300) throw new Error(`webhook bench: ${method} ${path} answered ${response.status}: ${await response.text()}`);
      return response.json() as Promise<{ id: string }>;
    };
    const endpoint = await call('POST', '/webhook-endpoints', { url: receiver.url, events: ['pet.created'] });
    // Whether anything is left, not how much: a count every 100 ms read the whole backlog each time.
    const drained = async () => {
      for (;;) {
        const [[left]] = await pool.query<RowDataPacket[]>(
          "SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE state = 'pending') AS pending, " +
            'EXISTS (SELECT 1 FROM events WHERE dispatched = 0) AS undispatched',
        );
        if (Number(left.pending) === 0 && Number(left.undispatched) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    // createPet with the endpoint subscribed (enabled) against none (disabled), alternated, each
    // round after the last one's deliveries are done.
    process.stderr.write('bench: webhooks: createPet with and without an endpoint\n');
    const scenario: Scenario = {
      name: 'createPet',
      method: 'POST',
      path: '/v1/pets',
      body: JSON.stringify({ name: 'Hooked', categoryId: 7 }),
    };
    const target = { name: 'service', base };
    await load(target, scenario, key, 2);
    await drained();
    const without: number[] = [];
    const withOne: number[] = [];
    /** How long the deliveries of a round with the endpoint took to finish after it (they yield to requests). */
    const caughtUp: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const subscribed of r % 2 ? [true, false] : [false, true]) {
        await call('POST', `/webhook-endpoints/${endpoint.id}/${subscribed ? 'enable' : 'disable'}`);
        const { requestsPerSecond } = await load(target, scenario, key, SECONDS);
        (subscribed ? withOne : without).push(requestsPerSecond);
        const roundEnded = performance.now();
        await drained();
        if (subscribed) caughtUp.push((performance.now() - roundEnded) / 1000);
      }
    }
    await call('POST', `/webhook-endpoints/${endpoint.id}/enable`);
    const ratios = withOne.map((rps, r) => rps / without[r]);

    // The first attempt after the 201, at a steady rate.
    process.stderr.write(`bench: webhooks: ${STEADY_RATE} creates a second for ${STEADY_SECONDS} s\n`);
    const steady = await steadyCreates(base, key, STEADY_RATE, STEADY_RATE * STEADY_SECONDS, 'Steady');
    const steadyIds = new Set(steady.map(({ id }) => id));
    const arrivals = () => [...receiver.firstSeen.values()].filter(({ petId }) => steadyIds.has(petId));
    await receiver.until(() => arrivals().length >= steady.length, 120_000);
    const createdAt = new Map(steady.map(({ id, at }) => [id, at]));
    const delays = arrivals().map(({ at, petId }) => Math.max(0, at - createdAt.get(petId)!));

    // Deliveries a second: a backlog written with delivery off, drained by one replica.
    process.stderr.write(`bench: webhooks: a backlog of ${BACKLOG} events, drained\n`);
    await stopService();
    await startService(false);
    const backlog = new Set<number>();
    const workers = Array.from({ length: 16 }, async () => {
      while (backlog.size < BACKLOG) backlog.add((await createPet(base, key, 'Backlog')).id);
    });
    await Promise.all(workers);
    await stopService();
    const inBacklog = () => [...receiver.firstSeen.values()].filter(({ petId }) => backlog.has(petId)).length;
    const drainStarted = performance.now();
    await startService(true);
    await receiver.until(() => inBacklog() >= backlog.size, 600_000);
    const deliveriesPerSecond = round(backlog.size / ((performance.now() - drainStarted) / 1000), 0);

    // An outage: the receiver down while writes go on; then up, and the backlog drains.
    process.stderr.write(`bench: webhooks: the receiver down for ${DOWN_SECONDS} s\n`);
    await receiver.down();
    const outage = await steadyCreates(base, key, OUTAGE_RATE, OUTAGE_RATE * DOWN_SECONDS, 'Outage');
    const outageIds = new Set(outage.map(({ id }) => id));
    await receiver.up();
    const upAt = performance.now();
    await receiver.until(
      () => [...receiver.firstSeen.values()].filter(({ petId }) => outageIds.has(petId)).length >= outage.length,
      1_800_000,
    );
    const drainSeconds = round((performance.now() - upAt) / 1000, 1);

    const figures: WebhookFigures = {
      createPet: {
        withoutRps: median(without),
        withRps: median(withOne),
        ratio: round(median(ratios)),
        caughtUpSeconds: round(median(caughtUp), 1),
      },
      firstAttempt: {
        rate: STEADY_RATE,
        events: delays.length,
        p50Ms: round(percentile(delays, 0.5), 0),
        p99Ms: round(percentile(delays, 0.99), 0),
        maxMs: round(Math.max(...delays), 0),
      },
      deliveriesPerSecond,
      outage: { downSeconds: DOWN_SECONDS, events: outage.length, drainSeconds },
      duplicates: receiver.duplicates,
      peakRssMb,
    };
    process.stdout.write(
      [
        '',
        `webhooks: createPet with an endpoint ${figures.createPet.withRps} req/s, without ${figures.createPet.withoutRps} (median ratio ${figures.createPet.ratio}); its deliveries done ${figures.createPet.caughtUpSeconds} s after each ${SECONDS} s round`,
        `webhooks: first attempt after the 201 at ${STEADY_RATE}/s: p50 ${figures.firstAttempt.p50Ms} ms, p99 ${figures.firstAttempt.p99Ms} ms, max ${figures.firstAttempt.maxMs} ms (${delays.length} events)`,
        `webhooks: ${deliveriesPerSecond} deliveries a second draining ${BACKLOG} events`,
        `webhooks: receiver down ${DOWN_SECONDS} s (${outage.length} events, schedule ${SCHEDULE}): drained ${drainSeconds} s after it came back`,
        `webhooks: ${receiver.duplicates} duplicates; service peak resident memory ${peakRssMb} MB`,
        '',
      ].join('\n'),
    );
    const checks = [
      {
        what: `webhooks: first attempt p99 ${figures.firstAttempt.p99Ms} ms after the 201 at ${STEADY_RATE} creates/s (<= ${TARGETS.firstAttemptP99Ms})`,
        ok: figures.firstAttempt.p99Ms <= TARGETS.firstAttemptP99Ms,
      },
      {
        what: `webhooks: createPet with an endpoint ${figures.createPet.ratio}x its throughput without (>= ${TARGETS.createPetRatio})`,
        ok: figures.createPet.ratio >= TARGETS.createPetRatio,
      },
      { what: `webhooks: ${receiver.duplicates} duplicate deliveries in normal running (0)`, ok: receiver.duplicates === 0 },
      { what: `webhooks: peak resident memory ${peakRssMb} MB (<= ${TARGETS.peakRssMb})`, ok: peakRssMb <= TARGETS.peakRssMb },
    ];
    return { figures, checks };
  } finally {
    clearInterval(sampler);
    if (service?.exitCode === null) service.kill('SIGTERM');
    await receiver.down().catch(() => undefined);
    await pool.end();
    await admin.query(`DROP DATABASE \`${databaseName}\``);
    await admin.end();
  }
}
