/**
 * The image and the compose stack, run for real: the service's image is built, docker-compose.yml
 * brought up (MySQL, Redis, the migrate job, the api replicas, nginx) and checked from outside,
 * through nginx's port published on 127.0.0.1 only — the way an integrator meets it. Then the
 * faults an operator causes: a replica killed, the api stopped, the database restarted, all under
 * traffic. Whatever happens, `docker compose down -v` removes what the run made.
 *
 * The images are the official ones unless NODE_IMAGE, MYSQL_IMAGE, REDIS_IMAGE and NGINX_IMAGE say
 * otherwise (`npm run test:containers:local` uses the stand-ins of scripts/local-images.sh).
 * The figures (image size, time to healthy, peak memory, fault results) are printed at the end and
 * written to .test-logs/containers.json.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import autocannon from 'autocannon';
import { hashApiKey } from '../../src/auth/api-key-secret.js';
import { freePort } from '../e2e/support/free-port.js';
import { rawExchange } from '../e2e/support/raw-http.js';
import {
  ComposeStack,
  docker,
  peakMemory,
  reportFigures,
  sleep,
  startWebhookReceiver,
  Traffic,
  WEBHOOK_ENV,
  type WebhookReceiver,
  webhookIdsByPet,
} from './support/compose-stack.js';

const MEMORY_LIMIT_MB = 256;
/** nginx asks Docker's DNS for the replicas again after this long (deploy/nginx.conf). */
const NGINX_RESOLVER_MS = 11_000;

const figures: Record<string, unknown> = {};
let stack: ComposeStack;
let key: string;

const authorized = (apiKey = key) => ({ Authorization: `Bearer ${apiKey}` });

async function call(path: string, init: RequestInit & { apiKey?: string } = {}): Promise<Response> {
  const url = path.startsWith('http') ? path : `${stack.base}${path}`;
  const headers = {
    ...(init.apiKey === '' ? {} : authorized(init.apiKey)),
    ...(init.body ? { 'Content-Type': 'application/json' } : {}),
    ...init.headers,
  };
  return fetch(url, { ...init, headers, signal: AbortSignal.timeout(30_000) });
}

async function createPet(name: string, idempotencyKey?: string): Promise<Response> {
  return call('/v1/pets', {
    method: 'POST',
    body: JSON.stringify({ name, categoryId: 1 }),
    headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
  });
}

/** Every pet, page by page through the Link headers. */
const allPets = (limit?: number) => stack.allPets(key, limit);

async function apiStartTimes(): Promise<string[]> {
  const ids = await stack.containers('api');
  return Promise.all(ids.map((id) => docker(['inspect', '--format', '{{.State.StartedAt}}', id])));
}

/** A statement as the MySQL container's root, whose password its first start printed (MYSQL_RANDOM_ROOT_PASSWORD); its one value. */
async function asRootOnMysql(sql: string): Promise<string> {
  const password = /GENERATED ROOT PASSWORD: (\S+)/.exec(await stack.compose(['logs', 'mysql']))?.[1];
  if (!password) throw new Error('the MySQL container printed no generated root password');
  const client = 'command -v mysql || command -v mariadb';
  const script = `"$(${client})" --user=root --password="$ROOT_PASSWORD" --batch --skip-column-names --execute="$SQL"`;
  return (await stack.compose(['exec', '-T', '-e', `ROOT_PASSWORD=${password}`, '-e', `SQL=${sql}`, 'mysql', 'sh', '-c', script])).trim();
}

beforeAll(async () => {
  stack = new ComposeStack(await freePort());
  key = stack.apiKeys[0];
  // Phase one: a limit no test reaches; the shared-limit test sets 60 per minute at the end.
  await stack.prepare({ RATE_LIMIT_PER_MINUTE: '1000000', ...WEBHOOK_ENV });

  let started = Date.now();
  await stack.compose(['build', 'api'], { timeoutMs: 900_000 });
  figures.imageBuildSeconds = Math.round((Date.now() - started) / 1000);
  figures.imageSizeMb = Math.round(Number(await docker(['image', 'inspect', '--format', '{{.Size}}', stack.image])) / 1e6);

  started = Date.now();
  await stack.compose(['up', '--detach', '--wait', '--no-build'], { timeoutMs: 300_000 });
  figures.upToHealthySeconds = Math.round((Date.now() - started) / 100) / 10;
}, 1_200_000);

afterAll(async () => {
  await stack?.down();
  await reportFigures('containers', figures);
}, 180_000);

describe('the compose stack, through nginx', () => {
  test('the service runs as a non-root user with its memory limit, on jemalloc', async () => {
    for (const container of await stack.containers('api')) {
      expect(await docker(['exec', container, 'id', '-u'])).not.toBe('0');
      expect(Number(await docker(['inspect', '--format', '{{.HostConfig.Memory}}', container]))).toBe(MEMORY_LIMIT_MB * 2 ** 20);
      // The allocator that hands memory back after a burst of connections (Dockerfile).
      expect(await docker(['exec', container, 'grep', '-c', 'libjemalloc', '/proc/1/maps'])).not.toBe('0');
    }
  });

  test('readiness answers 200 with the database up', async () => {
    const response = await call('/health/ready', { apiKey: '' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });

  test('creates, then lists across Link pages in id order', async () => {
    const created: number[] = [];
    for (const name of ['Rex', 'Tom', 'Kit', 'Bo', 'Max']) {
      const response = await createPet(name);
      expect(response.status).toBe(201);
      const pet = (await response.json()) as { id: number };
      expect(response.headers.get('location')).toBe(`${stack.base}/v1/pets/${pet.id}`);
      created.push(pet.id);
    }
    const listed = await allPets(2);
    expect(listed.map((pet) => pet.id)).toEqual(created);
  });

  test('the deprecated get answers with its headers', async () => {
    const [first] = await allPets();
    const response = await call(`/v1/pets/${first.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBe('@1795219200');
    expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(response.headers.get('link')).toBe(`<${stack.base}/v1/pets>; rel="successor-version"`);
  });

  test('without a key: 401 in the Error shape', async () => {
    const response = await call('/v1/pets', { apiKey: '' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      code: 'API_KEY_MISSING',
      message: expect.any(String),
      status: 401,
      requestId: response.headers.get('x-request-id'),
    });
  });

  test('an idempotent retry is answered from the store, on whichever replica', async () => {
    const first = await createPet('Once', 'ct-retry-1');
    const again = await createPet('Once', 'ct-retry-1');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect((await allPets()).filter((pet) => pet.name === 'Once')).toHaveLength(1);
  });

  test("a hostile name, on the stack's MySQL set to NO_BACKSLASH_ESCAPES by its DBA, runs nothing and reads back exactly", async () => {
    await asRootOnMysql("SET GLOBAL sql_mode = 'NO_BACKSLASH_ESCAPES,STRICT_TRANS_TABLES'");
    try {
      // The replicas' connections were opened under the old default: restarted, each opens new ones under this one.
      await stack.compose(['restart', 'api'], { timeoutMs: 120_000 });
      await stack.compose(['up', '--detach', '--wait', '--no-build'], { timeoutMs: 300_000 });
      const name = "x',1,0x61);CREATE TABLE pwned(i INT);# 縗',1,0x61);CREATE TABLE pwned_gbk(i INT);# -9007199254740991";
      const first = await createPet(name, 'ct-hostile-1');
      const firstText = await first.text();
      expect(first.status).toBe(201);
      const pet = JSON.parse(firstText) as { id: number; name: string };
      expect(pet.name).toBe(name);
      const again = await createPet(name, 'ct-hostile-1');
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.text()).toBe(firstText);
      expect(await (await call(`/v1/pets/${pet.id}`)).text()).toBe(firstText);
      expect(await asRootOnMysql("SELECT COUNT(*) FROM information_schema.tables WHERE table_name LIKE 'pwned%'")).toBe('0');
    } finally {
      await asRootOnMysql('SET GLOBAL sql_mode = DEFAULT');
    }
  });

  test('the apikey tool works through docker compose exec api', async () => {
    const made = await stack.compose(['exec', '-T', 'api', 'node', 'dist/src/cli/apikey.js', 'create', 'containers-test']);
    const madeKey = /psk_[A-Za-z0-9_-]+/.exec(made)?.[0];
    expect(madeKey).toBeDefined();
    expect((await call('/v1/pets?limit=1', { apiKey: madeKey })).status).toBe(200);
    expect(await stack.compose(['exec', '-T', 'api', 'node', 'dist/src/cli/apikey.js', 'list'])).toContain('containers-test');
  });
});

describe('clients behind nginx', () => {
  test("one client's made-up keys lock no other client out: each is counted by its own address", async () => {
    const made = await stack.compose(['exec', '-T', 'api', 'node', 'dist/src/cli/apikey.js', 'create', 'lockout-test']);
    const newKey = /psk_[A-Za-z0-9_-]+/.exec(made)![0];
    const [flooder, other] = [await stack.startClient(), await stack.startClient()];
    try {
      // 400 made-up keys over the two replicas (100 failures a minute each), half with a forged X-Forwarded-For.
      // nginx sends each request to a replica at random (its resolver shuffles the addresses), not in turn:
      // with 260, one replica had fewer than 100 by the last 20 about once in 120 runs; with 400, never.
      const flood = await flooder.statuses(
        'http://lb:3000/v1/pets?limit=1',
        Array.from({ length: 400 }, (_, i) => ({ apiKey: `made-up-${i}`, forwardedFor: i % 2 ? `10.9.${i % 250}.1` : undefined })),
      );
      const unauthorized = flood.filter((s) => s === 401).length;
      figures.authFlood = { unauthorized, limited: flood.filter((s) => s === 429).length };
      expect(flood.filter((s) => s !== 401 && s !== 429)).toEqual([]);
      // Each replica let exactly its 100 through, whatever the forged addresses said, then refused.
      expect(unauthorized).toBe(200);
      expect(flood.slice(-20)).toEqual(Array(20).fill(429));
      // Another client: its own wrong key is its own first failure, and a key no replica has checked yet works.
      const answered = await other.statuses('http://lb:3000/v1/pets?limit=1', [
        { apiKey: 'made-up-elsewhere' },
        ...Array.from({ length: 4 }, () => ({ apiKey: newKey })),
      ]);
      expect(answered).toEqual([401, 200, 200, 200, 200]);
    } finally {
      await Promise.all([flooder.stop(), other.stop()]);
    }
  }, 240_000);
});

describe('nginx, against slow clients and in its own answers', () => {
  test('3,000 connections trickling their headers from one client keep another client waiting for nothing', async () => {
    const [attacker, other] = [await stack.startClient(), await stack.startClient()];
    try {
      // Each the load balancer closes is opened again, as an attacker's loop would (bounded: 20 s, a pause of 20 ms).
      const flood = attacker.run(
        `import { connect } from 'node:net';
        const sockets = new Set();
        let opened = 0;
        const until = Date.now() + 20_000;
        const open = () => {
          const socket = connect(3000, 'lb');
          opened++;
          sockets.add(socket);
          socket.on('connect', () => socket.write('GET /v1/pets HTTP/1.1\\r\\nHost: lb\\r\\n'));
          socket.on('error', () => {});
          socket.on('close', () => { sockets.delete(socket); if (Date.now() < until) setTimeout(open, 20); });
        };
        for (let i = 0; i < 3000; i++) { open(); if (i % 200 === 199) await new Promise((r) => setTimeout(r, 20)); }
        const dribble = setInterval(() => { for (const s of sockets) if (s.writable) s.write('X-Slow: 1\\r\\n'); }, 1000);
        await new Promise((r) => setTimeout(r, until - Date.now()));
        clearInterval(dribble);
        for (const socket of sockets) socket.destroy();
        console.log(opened);`,
        90_000,
      );
      await sleep(4_000);
      const answered = await other.statuses(
        'http://lb:3000/v1/pets?limit=1',
        Array.from({ length: 40 }, () => ({ apiKey: key })),
      );
      const opened = Number(await flood);
      figures.slowClientsThroughNginx = {
        slowConnectionsOpened: opened,
        otherClientAnswered: answered.filter((s) => s === 200).length,
        of: 40,
      };
      expect(opened).toBeGreaterThanOrEqual(3000);
      expect(answered.filter((s) => s === 200).length).toBeGreaterThanOrEqual(38);
    } finally {
      await Promise.all([attacker.stop(), other.stop()]);
    }
  }, 240_000);

  test.each([
    ['a header line without a colon', 'GET /v1/pets HTTP/1.1\r\nHost: lb\r\nNot a header\r\n\r\n', 400, 'MALFORMED_REQUEST'],
    ['a header line of 20 KB', `GET /v1/pets HTTP/1.1\r\nHost: lb\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
    ['a request line of 20 KB', `GET /v1/pets?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: lb\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
    [
      'a body of 2 MB announced',
      'POST /v1/pets HTTP/1.1\r\nHost: lb\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n',
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    [
      'a path nginx keeps for its own answers',
      'GET /.lb/service-unavailable HTTP/1.1\r\nHost: lb\r\nConnection: close\r\n\r\n',
      404,
      'ROUTE_NOT_FOUND',
    ],
  ])('nginx answers %s itself in the Error shape', async (_, request, status, code) => {
    const response = await rawExchange(stack.port, [request], { waitMs: 10_000 });
    expect({ status: response.status, body: JSON.parse(response.body) }).toEqual({
      status,
      body: { code, message: expect.any(String), status, requestId: response.headers['x-request-id'] },
    });
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('memory', () => {
  test(`the api replicas stay a quarter under their ${MEMORY_LIMIT_MB} MB limit under load, with no OOM kill`, async () => {
    const before = await apiStartTimes();
    const bodies = [JSON.stringify({ name: 'Load', categoryId: 7, status: 'pending' })];
    const requests: autocannon.Request[] = [
      { method: 'GET', path: '/v1/pets?limit=20' },
      { method: 'GET', path: '/v1/pets?limit=20&status=pending' },
      { method: 'POST', path: '/v1/pets', body: bodies[0] },
      { method: 'GET', path: '/v1/pets/1' },
    ];
    const result = await autocannon({
      url: stack.base,
      connections: 16,
      duration: 15,
      headers: { ...authorized(), 'Content-Type': 'application/json' },
      requests,
    });
    const replicas = await stack.containers('api');
    const peaks = await Promise.all(replicas.map(peakMemory));
    figures.memoryUnderLoad = {
      requestsPerSecond: Math.round(result.requests.average),
      non2xx: result.non2xx,
      errors: result.errors,
      replicas: peaks,
    };
    expect(result.errors).toBe(0);
    expect(result.non2xx).toBe(0);
    for (const peak of peaks) {
      expect(peak.oomKilled).toBe(false);
      // At least a quarter of headroom: a process at its limit would be killed.
      expect(peak.cgroupMb * 1.25).toBeLessThanOrEqual(MEMORY_LIMIT_MB);
    }
    expect(await apiStartTimes()).toEqual(before);
  }, 120_000);
});

describe('faults under traffic', () => {
  test('three replicas: one killed with docker kill in the middle of GET traffic costs no failed GET', async () => {
    await stack.compose(['up', '--detach', '--wait', '--no-build', '--scale', 'api=3'], { timeoutMs: 300_000 });
    await sleep(NGINX_RESOLVER_MS);
    const [victim] = await stack.containers('api');
    const [pet] = await allPets();
    const traffic = new Traffic(4, async () => ({ status: (await call(`/v1/pets/${pet.id}`)).status }));
    await sleep(2_000);
    await docker(['kill', victim]);
    await sleep(6_000);
    const outcomes = await traffic.stop();
    figures.killedReplica = {
      gets: outcomes.length,
      failed: outcomes.filter((o) => o.status !== 200).length,
      slowestMs: Math.max(...outcomes.map((o) => o.ms)),
    };
    expect(outcomes.length).toBeGreaterThan(100);
    expect(outcomes.filter((o) => o.status !== 200)).toEqual([]);
    await stack.compose(['up', '--detach', '--wait', '--no-build', '--scale', 'api=3'], { timeoutMs: 300_000 });
  }, 360_000);

  test('three replicas: one stopped with docker stop (SIGTERM) in the middle of GET traffic costs no failed GET', async () => {
    await sleep(NGINX_RESOLVER_MS);
    const [victim] = await stack.containers('api');
    const [pet] = await allPets();
    const traffic = new Traffic(4, async () => ({ status: (await call(`/v1/pets/${pet.id}`)).status }));
    await sleep(2_000);
    await docker(['stop', victim], 60_000);
    await sleep(4_000);
    const outcomes = await traffic.stop();
    figures.stoppedReplica = { gets: outcomes.length, failed: outcomes.filter((o) => o.status !== 200).length };
    expect(outcomes.length).toBeGreaterThan(100);
    expect(outcomes.filter((o) => o.status !== 200)).toEqual([]);
    await stack.compose(['up', '--detach', '--wait', '--no-build', '--scale', 'api=3'], { timeoutMs: 300_000 });
  }, 360_000);

  test('docker compose stop api under create traffic: every create is answered and stored, or neither', async () => {
    const traffic = new Traffic(8, async (n) => {
      const name = `stop-${n}`;
      const response = await createPet(name);
      const body = (await response.json()) as { id?: number; code?: string; status?: number };
      return {
        status: response.status,
        name,
        id: response.status === 201 ? body.id : undefined,
        error:
          response.status === 201 ? undefined : { code: body.code, status: body.status, retryAfter: response.headers.get('retry-after') },
      };
    });
    await sleep(1_500);
    const started = Date.now();
    await stack.compose(['stop', 'api'], { timeoutMs: 60_000 });
    const stopSeconds = (Date.now() - started) / 1000;
    await sleep(1_000);
    const outcomes = await traffic.stop();
    await stack.compose(['up', '--detach', '--wait', '--no-build', '--scale', 'api=3'], { timeoutMs: 300_000 });

    const acknowledged = outcomes.filter((o) => o.status === 201).map((o) => o.name);
    const stored = (await allPets()).filter((pet) => pet.name.startsWith('stop-')).map((pet) => pet.name);
    const notAcknowledged = outcomes.filter((o) => o.status !== 201);
    figures.composeStopApi = {
      stopSeconds,
      creates: outcomes.length,
      acknowledged: acknowledged.length,
      refusedWhileStopped: Object.fromEntries(
        [...new Set(notAcknowledged.map((o) => o.status))].map((s) => [s, notAcknowledged.filter((o) => o.status === s).length]),
      ),
      storedWithoutAnswer: stored.filter((name) => !acknowledged.includes(name)).length,
    };
    expect(acknowledged.length).toBeGreaterThan(20);
    // An answered create is stored; a create stored without its answer would be a request cut in flight.
    expect(stored.sort()).toEqual([...acknowledged].sort());
    // What nginx answered while no replica listened (refused, or an address gone: 2 s connect time-out),
    // and what a stopping replica answered: 503 in the Error shape, with Retry-After.
    for (const outcome of notAcknowledged) {
      expect(outcome).toMatchObject({
        status: 503,
        error: { code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: expect.stringMatching(/^\d+$/) },
      });
    }
    expect(stopSeconds).toBeLessThan(15);
  }, 360_000);

  test('the database restarted mid-traffic: 503s, then healed without restarting the api; every acknowledged create reads back', async () => {
    const apiStarted = await apiStartTimes();
    const traffic = new Traffic(4, async (n) => {
      const name = `db-${n}`;
      const response = await createPet(name, `ct-db-${n}`);
      return { status: response.status, name, id: response.status === 201 ? ((await response.json()) as { id: number }).id : undefined };
    });
    await sleep(2_000);
    const restartStarted = Date.now();
    await stack.compose(['restart', 'mysql'], { timeoutMs: 120_000 });
    const restartedAfter = Date.now();
    // Healed: the first success after the restart, waited for at most 30 s.
    let healedMs: number | undefined;
    while (healedMs === undefined && Date.now() - restartedAfter < 30_000) {
      await sleep(200);
      const ok = traffic.outcomes.filter((o) => o.status === 201).length;
      await sleep(500);
      if (traffic.outcomes.filter((o) => o.status === 201).length > ok) healedMs = Date.now() - restartedAfter;
    }
    const outcomes = await traffic.stop();
    const answersDuringOutage = outcomes.filter((o) => o.status !== 201);
    figures.databaseRestart = {
      restartSeconds: (restartedAfter - restartStarted) / 1000,
      creates: outcomes.length,
      acknowledged: outcomes.filter((o) => o.status === 201).length,
      statusesDuringOutage: Object.fromEntries(
        [...new Set(answersDuringOutage.map((o) => o.status))].map((s) => [s, answersDuringOutage.filter((o) => o.status === s).length]),
      ),
      slowestMs: Math.max(...outcomes.map((o) => o.ms)),
      healedSecondsAfterRestart: healedMs === undefined ? null : healedMs / 1000,
    };
    expect(answersDuringOutage.length).toBeGreaterThan(0);
    expect(answersDuringOutage.filter((o) => o.status !== 503)).toEqual([]);
    expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(6_000);
    expect(healedMs).toBeDefined();
    expect(await apiStartTimes()).toEqual(apiStarted);
    for (const { id, name } of outcomes.filter((o) => o.status === 201)) {
      const response = await call(`/v1/pets/${id}`);
      expect({ id, status: response.status }).toEqual({ id, status: 200 });
      expect(((await response.json()) as { name: string }).name).toBe(name);
    }
  }, 360_000);
});

describe('webhooks from three replicas', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver(stack);
    await stack.compose(['up', '--detach', '--wait', '--no-build', '--scale', 'api=3'], { timeoutMs: 300_000 });
  }, 360_000);
  afterAll(async () => receiver?.remove());

  const endpointAt = async (path: string): Promise<string> => {
    const body = JSON.stringify({ url: `http://receiver:8080${path}`, events: ['pet.created'] });
    const response = await call('/v1/webhook-endpoints', { method: 'POST', body });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };

  test('10,000 events, each delivered exactly once to a healthy receiver, with all three replicas delivering', async () => {
    const endpoint = await endpointAt('/once');
    const started = Date.now();
    const ids: number[] = [];
    const refused: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 10_000) {
          const response = await createPet(`hook-${next++}`);
          if (response.status === 201) ids.push(((await response.json()) as { id: number }).id);
          else refused.push(response.status);
        }
      }),
    );
    const createdSeconds = (Date.now() - started) / 1000;
    const deliveries = await receiver.allArrived('/once', ids, 300_000);
    const byPet = webhookIdsByPet(deliveries);
    figures.webhooksExactlyOnce = {
      events: ids.length,
      createdSeconds,
      deliveredSeconds: (Date.now() - started) / 1000,
      deliveries: deliveries.length,
      duplicates: deliveries.length - byPet.size,
    };
    expect(refused).toEqual([]);
    expect(ids).toHaveLength(10_000);
    expect([...byPet.keys()].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    // Exactly once: as many deliveries as events.
    expect(deliveries).toHaveLength(ids.length);
    expect((await call(`/v1/webhook-endpoints/${endpoint}`, { method: 'DELETE' })).status).toBe(204);
  }, 900_000);

  test('a replica killed mid-delivery, the receiver down and the database restarted: every acknowledged create is delivered, a duplicate under the same webhook-id', async () => {
    const endpoint = await endpointAt('/slow');
    const traffic = new Traffic(4, async (n) => {
      const name = `hook-fault-${n}`;
      const response = await createPet(name, `ct-hook-${n}`);
      return { status: response.status, name, id: response.status === 201 ? ((await response.json()) as { id: number }).id : undefined };
    });
    await sleep(3_000);
    const [victim] = await stack.containers('api');
    await docker(['kill', '--signal', 'KILL', victim]);
    await sleep(2_000);
    await docker(['stop', '--time', '0', receiver.container]);
    await sleep(5_000);
    await docker(['start', receiver.container]);
    await sleep(2_000);
    await stack.compose(['restart', 'mysql'], { timeoutMs: 120_000 });
    await sleep(3_000);
    const outcomes = await traffic.stop();
    await stack.compose(['up', '--detach', '--wait', '--no-build', '--scale', 'api=3'], { timeoutMs: 300_000 });

    const acknowledged = outcomes.filter((o) => o.status === 201).map((o) => o.id!);
    // A claim of the killed replica is taken over when its lease (time-out + 20 s) runs out.
    const deliveries = await receiver.allArrived('/slow', acknowledged, 240_000);
    const byPet = webhookIdsByPet(deliveries);
    const stored = new Set((await allPets()).map(({ id }) => id));
    figures.webhooksUnderFaults = {
      creates: outcomes.length,
      acknowledged: acknowledged.length,
      delivered: byPet.size,
      deliveries: deliveries.length,
      duplicates: deliveries.length - byPet.size,
    };
    expect(acknowledged.length).toBeGreaterThan(20);
    expect(acknowledged.filter((id) => !byPet.has(id))).toEqual([]);
    // Nothing is sent for a write that did not happen, and a duplicate is the same event.
    expect([...byPet.keys()].filter((id) => !stored.has(id))).toEqual([]);
    expect([...byPet.values()].filter((webhookIds) => webhookIds.size > 1)).toEqual([]);
    expect((await call(`/v1/webhook-endpoints/${endpoint}`, { method: 'DELETE' })).status).toBe(204);
  }, 900_000);
});

describe('several replicas, one limit', () => {
  test('60 per minute for one key, shared by three replicas through Redis: 60 answered, the rest 429', async () => {
    // Replicas made again with the limit of 60; nginx learns their addresses within its resolver time.
    await stack.compose(['up', '--detach', '--wait', '--no-build', '--scale', 'api=3'], {
      env: { RATE_LIMIT_PER_MINUTE: '60' },
      timeoutMs: 300_000,
    });
    await sleep(NGINX_RESOLVER_MS);
    const limitedKey = stack.apiKeys[1];
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let i = 0; i < 15; i++) statuses.push((await call('/v1/pets?limit=1', { apiKey: limitedKey })).status);
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);

    // Each replica answered some of them: the count is one, not three.
    const keyId = `env-${hashApiKey(limitedKey).slice(0, 12)}`;
    const perReplica = await Promise.all(
      (await stack.containers('api')).map(
        async (id) => (await docker(['logs', id])).split('\n').filter((line) => line.includes(keyId)).length,
      ),
    );
    figures.sharedLimit = { answered: 60, refused: 30, requestsPerReplica: perReplica };
    expect(perReplica).toHaveLength(3);
    for (const count of perReplica) expect(count).toBeGreaterThan(0);
  }, 360_000);
});
