import { describe, expect, it } from '@jest/globals';
import type { Request, Response } from 'express';
import { Registry } from 'prom-client';
import type { AppConfig } from '../../src/config/app-config.js';
import { Environment } from '../../src/environments/environment.js';
import type { FinishedRequest } from '../../src/http/edge.js';
import type { HttpMetrics } from '../../src/metrics/http-metrics.js';
import type { LoggedRequest, RequestLogRepository } from '../../src/request-log/request-log.repository.js';
import { BATCH_SIZE, QUEUE_LIMIT, REFUSED_RUN_MS, RequestLogWriter } from '../../src/request-log/request-log.writer.js';

/** A database that takes every batch, or refuses them while `down`; what it wrote, batch by batch. */
function database() {
  const batches: LoggedRequest[][] = [];
  const added: [string, number][] = [];
  const state = { down: false, slow: undefined as Promise<void> | undefined };
  const repository = {
    insert: async (entries: readonly LoggedRequest[]) => {
      await state.slow;
      if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:3306');
      batches.push([...entries]);
    },
    addToCount: async (entry: LoggedRequest, more: number) => {
      await state.slow;
      if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:3306');
      added.push([entry.requestId, more]);
    },
    purgeBatch: async () => 0,
  } as unknown as RequestLogRepository;
  return { repository, batches, added, state };
}

function writerOn(repository: RequestLogRepository, reads = false, clock = { now: () => Date.now() }) {
  const registry = new Registry();
  const config = { requestLog: { enabled: true, reads, days: 7 } } as AppConfig;
  const writer = new RequestLogWriter(repository, config, clock, { registry } as unknown as HttpMetrics);
  const record = writer.recorder(() => ({ operationId: 'getPet', takesQueryParameter: () => false }))!;
  const metric = async (name: string) => (await registry.getSingleMetricAsString(name)).split('\n').filter((line) => !line.startsWith('#'));
  return { writer, record, metric };
}

let sent = 0;
/** A finished request: the key's (a live one unless told), answered `status`. */
function finished(
  method: string,
  status: number,
  apiKey: object | null = { keyId: 'key-1', environment: Environment.LIVE },
): FinishedRequest {
  const request = {
    method,
    requestId: `r-${++sent}`,
    originalUrl: '/v1/pets/1',
    apiKey,
    headers: {},
    ip: '127.0.0.1',
    route: { path: '/v1/pets/:petId' },
    socket: {},
  } as unknown as Request;
  const response = { headersSent: true, statusCode: status, getHeader: () => undefined, req: request } as unknown as Response;
  return { request, response, durationMs: 3 };
}

const settled = () => new Promise((wait) => setTimeout(wait, 300));

describe('the request log writer', () => {
  it('keeps a key’s changes and failures, not its successful reads (unless asked), nor a request without a key', async () => {
    const { repository, batches } = database();
    const { record, writer } = writerOn(repository);
    record(finished('POST', 201));
    record(finished('DELETE', 409));
    record(finished('GET', 404));
    record(finished('GET', 200));
    record(finished('HEAD', 304));
    record(finished('POST', 401, null));
    await writer.onApplicationShutdown();
    expect(batches.flat().map(({ method, status }) => `${method} ${status}`)).toEqual(['POST 201', 'DELETE 409', 'GET 404']);
    const kept = database();
    const reading = writerOn(kept.repository, true);
    reading.record(finished('GET', 200));
    await reading.writer.onApplicationShutdown();
    expect(kept.batches.flat().map(({ method, status }) => `${method} ${status}`)).toEqual(['GET 200']);
  });

  it('writes in batches of at most 200, within 250 ms, never while the request waits', async () => {
    const { repository, batches } = database();
    const { record } = writerOn(repository);
    for (let i = 0; i < 450; i++) record(finished('POST', 201));
    // Nothing is written in the request's own turn.
    expect(batches).toEqual([]);
    await settled();
    expect(batches.map((batch) => batch.length)).toEqual([BATCH_SIZE, BATCH_SIZE, 50]);
    record(finished('POST', 201));
    await settled();
    expect(batches.at(-1)).toHaveLength(1);
  });

  it('drops and counts a batch the database refuses, and what a full queue cannot hold; writes again once it can', async () => {
    const { repository, batches, state } = database();
    const { record, metric, writer } = writerOn(repository);
    state.down = true;
    for (let i = 0; i < 5; i++) record(finished('POST', 503));
    await settled();
    expect(await metric('petstore_request_log_dropped_total')).toContain('petstore_request_log_dropped_total{reason="database"} 5');
    state.down = false;
    let release!: () => void;
    state.slow = new Promise((resolve) => (release = resolve));
    for (let i = 0; i < QUEUE_LIMIT + BATCH_SIZE + 7; i++) record(finished('POST', 201));
    expect(await metric('petstore_request_log_dropped_total')).toContain('petstore_request_log_dropped_total{reason="queue_full"} 7');
    release();
    await writer.onApplicationShutdown();
    expect(batches.flat()).toHaveLength(QUEUE_LIMIT + BATCH_SIZE);
    expect(await metric('petstore_request_log_written_total')).toContain(`petstore_request_log_written_total ${QUEUE_LIMIT + BATCH_SIZE}`);
  });

  it('writes everything queued when the service stops', async () => {
    const { repository, batches } = database();
    const { record, writer } = writerOn(repository);
    for (let i = 0; i < 3; i++) record(finished('PATCH', 200));
    await writer.onApplicationShutdown();
    expect(batches.flat()).toHaveLength(3);
  });

  it('counts a key’s rate-limited answers in one entry a minute, the first’s, and each key’s apart', async () => {
    const { repository, batches, added } = database();
    let now = Date.now();
    const { record, writer } = writerOn(repository, false, { now: () => now });
    const first = finished('POST', 429);
    record(first);
    for (let i = 0; i < 9; i++) record(finished('GET', 429));
    record(finished('GET', 429, { keyId: 'key-2', environment: Environment.of(7) }));
    await settled();
    expect(batches.flat().map(({ requestId, keyId, count, environment }) => [requestId, keyId, count, environment])).toEqual([
      [first.request.requestId, 'key-1', 10, 0],
      [expect.any(String), 'key-2', 1, 7],
    ]);
    // Later in the minute: the written entry's count grows.
    for (let i = 0; i < 5; i++) record(finished('GET', 429));
    await settled();
    expect(added).toEqual([[first.request.requestId, 5]]);
    // A minute on: a new entry; what the ended run still had to count is added to its own.
    record(finished('GET', 429));
    now += REFUSED_RUN_MS;
    const next = finished('PATCH', 429);
    record(next);
    await writer.onApplicationShutdown();
    expect(added).toEqual([
      [first.request.requestId, 5],
      [first.request.requestId, 1],
    ]);
    expect(
      batches
        .flat()
        .map(({ requestId, count }) => [requestId, count])
        .at(-1),
    ).toEqual([next.request.requestId, 1]);
    expect(batches.flat()).toHaveLength(3);
  });

  it('keeps nothing with REQUEST_LOG=false: the edge is given no recorder', () => {
    const config = { requestLog: { enabled: false, reads: true, days: 7 } } as AppConfig;
    const writer = new RequestLogWriter(database().repository, config, { now: () => Date.now() }, {
      registry: new Registry(),
    } as unknown as HttpMetrics);
    expect(writer.recorder(() => null)).toBeUndefined();
  });
});
