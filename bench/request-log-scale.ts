/**
 * npm run bench -- --scale, the request log's half: the bench key's listing (first and deep pages,
 * each filter) and the lookup by request id, at 10,000 entries and at 1,000,000, with MySQL's plans
 * of the statements the service sends. Half the entries are another key's, so the key narrows too;
 * all are live, as the bench key is.
 */
import type mysql from 'mysql2/promise';
import { Environment } from '../src/environments/environment.js';
import { encodeCursor } from '../src/pagination/cursor.js';
import { RequestLogRepository } from '../src/request-log/request-log.repository.js';
import { explainReads, planLines } from './explain.js';
import { alternate, type Figures, type LoadTarget, round, type Scenario } from './load.js';

const SMALL = 10_000;
const LARGE = 1_000_000;
/** What 1,000,000 entries may cost a listing over 10,000: as the pets' listings (bench/run.ts). */
const SCALE_RATIO = 1.2;
/** Entries half a second apart, ending now: a million span 5.8 days, inside the 7 days kept. */
const STEP_MS = 500;

/** The i-th entry of the log (1-based, its row id after a TRUNCATE), every field derived from i. */
function entry(i: number, keyId: string, start: number): unknown[] {
  const kind = i % 20;
  const [operation, status, errorCode] =
    kind < 14
      ? ['createPet', 201, null]
      : kind < 18
        ? ['createPet', 400, 'VALIDATION_FAILED']
        : kind < 19
          ? ['getPet', 404, 'PET_NOT_FOUND']
          : ['placeOrder', 409, 'PET_NOT_AVAILABLE'];
  return [
    `req-${i}`,
    i % 2 === 0 ? keyId : 'key-0',
    new Date(start + i * STEP_MS),
    operation === 'getPet' ? 'GET' : 'POST',
    operation === 'placeOrder' ? '/v1/store/orders' : operation === 'getPet' ? `/v1/pets/${i}` : '/v1/pets',
    operation,
    status,
    Math.floor(status / 100),
    3,
    i % 10 === 4 ? `idem-${i}` : null,
    0,
    errorCode,
    errorCode && 'Seeded.',
    '127.0.0.1',
    'bench',
  ];
}

async function seed(pool: mysql.Pool, keyId: string, from: number, to: number, start: number): Promise<void> {
  for (let first = from + 1; first <= to; first += 10_000) {
    const rows = [];
    for (let i = first; i < Math.min(to + 1, first + 10_000); i++) rows.push(entry(i, keyId, start));
    await pool.query(
      'INSERT INTO request_log (request_id, key_id, created_at, method, path, operation, status, status_class, duration_ms, idempotency_key, replayed, error_code, error_message, client_address, user_agent) VALUES ?',
      [rows],
    );
  }
}

export async function requestLogScaleRun(pool: mysql.Pool, databaseUrl: string, service: LoadTarget, key: string) {
  const [[{ id }]] = (await pool.query("SELECT id FROM api_keys WHERE name = 'bench' ORDER BY id DESC LIMIT 1")) as unknown as [
    { id: number }[],
  ];
  const keyId = `key-${id}`;
  // The newest entry is now at LARGE: the small log is the oldest 10,000, as a log grows.
  const start = Date.now() - LARGE * STEP_MS;
  await pool.query('TRUNCATE TABLE request_log');
  // A position nine tenths down the key's listing (from the newest), at an entry of the key.
  const deepOf = (size: number) => {
    const i = Math.floor((size * 0.1) / 2) * 2;
    return [start + i * STEP_MS, i] as const;
  };
  const cursor = (size: number, filter: Record<string, string | undefined>) =>
    encodeURIComponent(
      encodeCursor(deepOf(size), 'requests', { status: undefined, operation: undefined, idempotencyKey: undefined, ...filter }),
    );
  const measure = async (size: number) => {
    const keyedEntry = Math.floor((size * 0.1) / 10) * 10 + 4;
    const scenarios: Scenario[] = [
      { name: 'newest first, first page', method: 'GET', path: '/v1/requests?limit=20' },
      { name: 'newest first, deep page', method: 'GET', path: `/v1/requests?limit=20&cursor=${cursor(size, {})}` },
      { name: 'status=4xx, deep page', method: 'GET', path: `/v1/requests?limit=20&status=4xx&cursor=${cursor(size, { status: '4xx' })}` },
      { name: 'status=404, deep page', method: 'GET', path: `/v1/requests?limit=20&status=404&cursor=${cursor(size, { status: '404' })}` },
      {
        name: 'operation, deep page',
        method: 'GET',
        path: `/v1/requests?limit=20&operation=placeOrder&cursor=${cursor(size, { operation: 'placeOrder' })}`,
      },
      { name: 'idempotencyKey', method: 'GET', path: `/v1/requests?idempotencyKey=idem-${keyedEntry}` },
      { name: 'by request id', method: 'GET', path: `/v1/requests/req-${keyedEntry}` },
    ];
    const figures: Record<string, Figures> = {};
    for (const scenario of scenarios) figures[scenario.name] = (await alternate([service], scenario, key)).service;
    return figures;
  };
  await seed(pool, keyId, 0, SMALL, start);
  await pool.query('ANALYZE TABLE request_log');
  const small = await measure(SMALL);
  process.stderr.write(`bench: seeding ${LARGE.toLocaleString('en')} request log entries\n`);
  await seed(pool, keyId, SMALL, LARGE, start);
  await pool.query('ANALYZE TABLE request_log');
  const large = await measure(LARGE);

  const deep = deepOf(LARGE);
  const plans = await explainReads(pool, databaseUrl, (sql) => new RequestLogRepository(sql), [
    ['newest first, deep page', (log) => log.page(Environment.LIVE, keyId, {}, deep, 21)],
    ['status=4xx, deep page', (log) => log.page(Environment.LIVE, keyId, { statusClass: 4 }, deep, 21)],
    ['status=404, deep page', (log) => log.page(Environment.LIVE, keyId, { status: 404 }, deep, 21)],
    ['operation, deep page', (log) => log.page(Environment.LIVE, keyId, { operation: 'placeOrder' }, deep, 21)],
    ['idempotencyKey and status', (log) => log.page(Environment.LIVE, keyId, { idempotencyKey: 'idem-4', status: 201 }, undefined, 21)],
    ['by request id', (log) => log.byRequestId(Environment.LIVE, keyId, 'req-4')],
  ]);
  await pool.query('TRUNCATE TABLE request_log');

  const lines = [
    '',
    `request log: mean latency at ${SMALL.toLocaleString('en')} entries vs ${LARGE.toLocaleString('en')} (ratio, target <= ${SCALE_RATIO})`,
  ];
  const checks = [];
  for (const name of Object.keys(small)) {
    const ratio = round(large[name].meanMs / small[name].meanMs);
    lines.push(`  ${name.padEnd(26)} ${small[name].meanMs} ms -> ${large[name].meanMs} ms  (${ratio})`);
    checks.push({
      what: `at 1,000,000 log entries, ${name} takes ${ratio}x its time at 10,000 (<= ${SCALE_RATIO})`,
      ok: ratio <= SCALE_RATIO,
    });
  }
  lines.push('', 'query plans at 1,000,000 entries (MySQL EXPLAIN):', ...planLines(plans));
  process.stdout.write(`${lines.join('\n')}\n\n`);
  return { figures: { small, large, plans }, checks };
}
