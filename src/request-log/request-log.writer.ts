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
import { redactUrl } from '../logging/redact-url.js';
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

/** The operationId of the route a request took (`GET` and `/v1/pets/:petId`), from the document; null for none. */
export type OperationOf = (method: string, route: string) => string | null;

/**
 * The request log's writing side, off every request's path: a finished request is made an entry
 * (if it is kept: a valid key's change, failure, or, with REQUEST_LOG_READS, successful read) and
 * queued in memory; the queue is written in batches, one multi-row insert at most every 250 ms or
 * 200 entries, never awaited by a request. A full queue or a database that refuses a batch drops
 * entries, counted in /metrics and told in one log line a minute; a stop writes what is queued
 * (after the last request is answered); a crash loses at most what was queued. Entries older than
 * REQUEST_LOG_DAYS are purged in small batches.
 */
@Injectable()
export class RequestLogWriter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RequestLog');
  private queue: LoggedRequest[] = [];
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

  /** The reporter of finished requests (the HTTP edge calls it once per request) that keeps the log. */
  recorder(operationOf: OperationOf): (finished: FinishedRequest) => void {
    const { reads } = this.config.requestLog;
    return ({ request, response, durationMs }) => {
      const key = request.apiKey;
      // Kept: a valid key's request that was answered, and changed something or failed, or any with reads kept.
      if (!key || !response.headersSent) return;
      const { statusCode: status } = response;
      if (!reads && isRead(request.method) && ((status >= 200 && status < 300) || status === 304)) return;
      const route = routeOf(request);
      this.enqueue(entryOf(request, response, key.keyId, durationMs, route && operationOf(request.method, route), this.clock.now()));
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
    while (this.queue.length > 0 || this.writing) await (this.writing ?? this.write());
  }

  private enqueue(entry: LoggedRequest): void {
    if (this.queue.length >= QUEUE_LIMIT) return this.drop(1, 'queue_full');
    this.queue.push(entry);
    if (this.queue.length >= BATCH_SIZE && !this.writing) void this.write();
    else this.timer ??= setTimeout(() => void this.write(), FLUSH_INTERVAL_MS);
  }

  /** Writes the queue in batches, one at a time; a batch the database refuses is dropped. */
  private write(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing) return this.writing;
    this.writing = (async () => {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, BATCH_SIZE);
        try {
          await this.entries.insert(batch);
          this.written.inc(batch.length);
        } catch (error) {
          this.drop(batch.length, 'database', error);
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

/** A finished request as the log keeps it: never its body, its Authorization header or a credential in its URL. */
function entryOf(
  request: Request,
  response: Response,
  keyId: string,
  durationMs: number,
  operation: string | null,
  now: number,
): LoggedRequest {
  const error = answeredError(response);
  return {
    requestId: request.requestId,
    keyId,
    createdAt: new Date(now - durationMs),
    method: request.method.slice(0, 16),
    path: redactUrl(request.originalUrl).slice(0, 2048),
    operation,
    status: response.statusCode,
    statusClass: Math.floor(response.statusCode / 100),
    durationMs: Math.round(durationMs),
    idempotencyKey: idempotencyKeyOf(request),
    replayed: response.getHeader('Idempotent-Replayed') === 'true',
    errorCode: error?.code ?? null,
    errorMessage: error ? error.message.slice(0, 1024) : null,
    clientAddress: clientAddress(request).slice(0, 64),
    userAgent: request.headers['user-agent']?.slice(0, 255) ?? null,
  };
}

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
