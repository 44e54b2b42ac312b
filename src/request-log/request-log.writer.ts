import type { ApiKeyPrincipal } from '../auth/api-key.principal.js';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Counter, Gauge } from 'prom-client';
import { clientAddress } from '../auth/client-address.js';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../config/clock.js';
import { answeredError } from '../errors/api-exception.filter.js';
import type { FinishedRequest } from '../http/edge.js';
import { routeOf } from '../http/route-table.js';
import { parseIdempotencyKey } from '../idempotency/idempotency-key.js';
import { redactKeys, redactUrlKeeping } from '../logging/redact-url.js';
import type { DocumentedOperation } from '../openapi/openapi.js';
import { HttpMetrics } from '../metrics/http-metrics.js';
import { type LoggedRequest, RequestLogRepository } from './request-log.repository.js';

/** Entries are written at most this long after their request, or sooner when a batch is full. */
export const FLUSH_INTERVAL_MS = 250;
/** At most this many entries to one insert. */
export const BATCH_SIZE = 200;
/** At most this many entries wait; past it, new ones are dropped (and counted) rather than held. */
export const QUEUE_LIMIT = 10_000;
/** Expired entries are looked for this often. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;
/** A loss is told at most once a minute: a database outage drops every batch. */
const DROPS_TOLD_EVERY_MS = 60_000;
/** A key's rate-limited answers are counted in one entry for this long from the first: the rate limit's window. */
export const REFUSED_RUN_MS = 60_000;

/** The operation a route took (`GET` and `/v1/pets/:petId`), from the document; null for none. */
export type OperationOf = (method: string, route: string) => DocumentedOperation | null;

/**
 * A key's rate-limited answers (429) of one minute, counted in one entry, the first's: its row is
 * written as any entry is, and the answers that follow add to its count.
 */
interface RefusedRun {
  readonly entry: LoggedRequest;
  readonly endsAt: number;
  /** The answers of the run so far. */
  counted: number;
  /** Of them, those the log holds (or a write under way takes there). */
  recorded: number;
}

/**
 * The request log's writing side, off every request's path: a finished request is made an entry
 * (if it is kept: a valid key's change, failure, or, with REQUEST_LOG_READS, successful read) and
 * queued in memory; the queue is written in batches, one multi-row insert at most every 250 ms or
 * 200 entries, never awaited by a request. A key's rate-limited answers (429) are one entry a
 * minute, whose count grows, so that a key writes at most its rate limit and one more entry a
 * minute. A full queue or a database that refuses a batch drops
 * entries, counted in /metrics and told in one log line a minute; a stop writes what is queued
 * (after the last request is answered); a crash loses at most what was queued. Entries older than
 * REQUEST_LOG_DAYS are purged in small batches.
 */
@Injectable()
export class RequestLogWriter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RequestLog');
  private queue: LoggedRequest[] = [];
  private readonly refusedRuns = new Map<string, RefusedRun>();
  /** Runs that ended with answers still to count, until the next write takes them. */
  private endedRuns: RefusedRun[] = [];
  private timer?: NodeJS.Timeout;
  private writing?: Promise<void>;
  private purgeTimer?: NodeJS.Timeout;
  private readonly written: Counter;
  private readonly dropped: Counter<'reason'>;
  private droppedUntold = 0;
  private dropsToldAt = -Infinity;

  constructor(
    private readonly entries: RequestLogRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    metrics: HttpMetrics,
  ) {
    const registers = [metrics.registry];
    this.written = new Counter({ name: 'petstore_request_log_written_total', help: 'Request log entries written.', registers });
    this.dropped = new Counter({
      name: 'petstore_request_log_dropped_total',
      help: 'Request log entries lost: the queue was full (queue_full), or the database refused their batch (database).',
      labelNames: ['reason'] as const,
      registers,
    });
    const queue = () => this.queue.length;
    new Gauge({
      name: 'petstore_request_log_queued',
      help: 'Request log entries waiting to be written.',
      registers,
      collect() {
        this.set(queue());
      },
    });
  }

  /**
   * The reporter of finished requests (the HTTP edge calls it once per request) that keeps the log;
   * none with REQUEST_LOG=false, so that a request then costs nothing of it.
   */
  recorder(operationOf: OperationOf): ((finished: FinishedRequest) => void) | undefined {
    const { enabled, reads } = this.config.requestLog;
    if (!enabled) return undefined;
    return ({ request, response, durationMs }) => {
      const key = request.apiKey;
      // Kept: a valid key's request that was answered, and changed something or failed, or any with reads kept.
      if (!key || !response.headersSent) return;
      const { statusCode: status } = response;
      if (!reads && isRead(request.method) && ((status >= 200 && status < 300) || status === 304)) return;
      const route = routeOf(request);
      const entry = entryOf(request, response, key, durationMs, route ? operationOf(request.method, route) : null, this.clock.now());
      if (status === 429) this.countRefused(entry);
      else this.enqueue(entry);
    };
  }

  onApplicationBootstrap(): void {
    void this.purge();
    this.purgeTimer = setInterval(() => void this.purge(), PURGE_INTERVAL_MS).unref();
  }

  /** After the last request was answered (Nest stops the HTTP server first): writes what is queued. */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.purgeTimer);
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0 || this.writing || this.uncountedRefusals()) await (this.writing ?? this.write());
  }

  private enqueue(entry: LoggedRequest): void {
    if (this.queue.length >= QUEUE_LIMIT) return this.drop(1, 'queue_full');
    this.queue.push(entry);
    if (this.queue.length >= BATCH_SIZE && !this.writing) void this.write();
    else this.timer ??= setTimeout(() => void this.write(), FLUSH_INTERVAL_MS);
  }

  /** A rate-limited answer: the first of its key's run, or one more of it. */
  private countRefused(entry: LoggedRequest): void {
    const now = this.clock.now();
    const run = this.refusedRuns.get(entry.keyId);
    if (run !== undefined && run.endsAt > now) run.counted++;
    else {
      if (run !== undefined && run.counted > run.recorded) this.endedRuns.push(run);
      this.refusedRuns.set(entry.keyId, { entry, endsAt: now + REFUSED_RUN_MS, counted: 1, recorded: 0 });
    }
    this.timer ??= setTimeout(() => void this.write(), FLUSH_INTERVAL_MS);
  }

  private uncountedRefusals(): boolean {
    for (const run of this.refusedRuns.values()) if (run.counted > run.recorded) return true;
    return this.endedRuns.length > 0;
  }

  /**
   * The refused runs' news, taken to be written: a new run's entry, with its count so far, joins the
   * queue; a run already written answers how many to add to its count. Ended runs are forgotten.
   */
  private takeRefusals(): [LoggedRequest, number][] {
    const now = this.clock.now();
    const additions: [LoggedRequest, number][] = [];
    const take = (run: RefusedRun) => {
      if (run.counted === run.recorded) return;
      if (run.recorded === 0) this.queue.push({ ...run.entry, count: run.counted });
      else additions.push([run.entry, run.counted - run.recorded]);
      run.recorded = run.counted;
    };
    for (const run of this.endedRuns) take(run);
    this.endedRuns = [];
    for (const [keyId, run] of this.refusedRuns) {
      take(run);
      if (run.endsAt <= now) this.refusedRuns.delete(keyId);
    }
    return additions;
  }

  /** Writes the queue in batches, one at a time, then the refused runs' counts; a batch the database refuses is dropped. */
  private write(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing) return this.writing;
    this.writing = (async () => {
      for (let additions = this.takeRefusals(); this.queue.length > 0 || additions.length > 0; additions = this.takeRefusals()) {
        while (this.queue.length > 0) {
          const batch = this.queue.splice(0, BATCH_SIZE);
          try {
            await this.entries.insert(batch);
            this.written.inc(batch.length);
          } catch (error) {
            this.drop(batch.length, 'database', error);
          }
        }
        // After the inserts: a run's entry went in a write before the one that adds to it.
        for (const [entry, more] of additions) {
          try {
            await this.entries.addToCount(entry, more);
          } catch (error) {
            this.drop(more, 'database', error);
          }
        }
      }
    })().finally(() => (this.writing = undefined));
    return this.writing;
  }

  private drop(count: number, reason: 'queue_full' | 'database', error?: unknown): void {
    this.dropped.inc({ reason }, count);
    this.droppedUntold += count;
    const now = this.clock.now();
    if (now - this.dropsToldAt < DROPS_TOLD_EVERY_MS) return;
    const cause =
      reason === 'queue_full'
        ? 'its queue was full'
        : `the database refused them (${error instanceof Error ? error.message : String(error)})`;
    this.logger.warn(`request log: ${this.droppedUntold} entries dropped since the last report: ${cause}`);
    this.droppedUntold = 0;
    this.dropsToldAt = now;
  }

  private async purge(): Promise<void> {
    const before = new Date(this.clock.now() - this.config.requestLog.days * 24 * 60 * 60 * 1000);
    try {
      let purged = 0;
      for (let batch = await this.entries.purgeBatch(before); batch > 0; batch = await this.entries.purgeBatch(before)) purged += batch;
      if (purged > 0) this.logger.log(`purged ${purged} request log entries older than ${this.config.requestLog.days} days`);
    } catch (error) {
      this.logger.warn(`could not purge the request log: ${error instanceof Error ? error.message : error}`);
    }
  }
}

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/**
 * A finished request as the log keeps it: never its body, its Authorization header, a query value
 * of a parameter its operation does not take, or text shaped like a key (redacted before any cut).
 */
function entryOf(
  request: Request,
  response: Response,
  { keyId, environment }: ApiKeyPrincipal,
  durationMs: number,
  operation: DocumentedOperation | null,
  now: number,
): LoggedRequest {
  const error = answeredError(response);
  return {
    requestId: request.requestId,
    keyId,
    environment: environment.id,
    createdAt: new Date(now - durationMs),
    method: request.method.slice(0, 16),
    path: redactUrlKeeping(request.originalUrl, operation?.takesQueryParameter ?? takesNoQueryParameter).slice(0, 2048),
    operation: operation?.operationId ?? null,
    status: response.statusCode,
    statusClass: Math.floor(response.statusCode / 100),
    durationMs: Math.round(durationMs),
    idempotencyKey: redactKeys(idempotencyKeyOf(request)),
    replayed: response.getHeader('Idempotent-Replayed') === 'true',
    errorCode: error?.code ?? null,
    errorMessage: error ? redactKeys(error.message).slice(0, 1024) : null,
    count: 1,
    clientAddress: clientAddress(request).slice(0, 64),
    userAgent: redactKeys(request.headers['user-agent'] ?? null)?.slice(0, 255) ?? null,
  };
}

/** A request no operation took: none of its query values is kept. */
const takesNoQueryParameter = () => false;

/** The request's Idempotency-Key as the service read it; null for none or one it refused. */
function idempotencyKeyOf(request: Request): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  try {
    return parseIdempotencyKey(Array.isArray(header) ? header.join(', ') : header);
  } catch {
    return null;
  }
}
