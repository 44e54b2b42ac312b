import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { Clock } from '../config/clock.js';
import { HttpMetrics } from '../metrics/http-metrics.js';
import type { AttemptOutcome } from './attempt-outcome.js';
import { type Backlog, DeliveryLogRepository } from './delivery-log.repository.js';

/**
 * Webhook delivery in the service's /metrics: attempts by outcome and their latency, deliveries
 * ended, and the backlog's size and age (read from the database at each scrape, so every instance
 * reports the whole cluster's backlog).
 */
@Injectable()
export class DeliveryMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly latency: Histogram<'outcome'>;
  private readonly ended: Counter<'outcome'>;

  constructor(metrics: HttpMetrics, deliveries: DeliveryLogRepository, clock: Clock) {
    const registers = [metrics.registry];
    this.attempts = new Counter({
      name: 'petstore_webhook_attempts_total',
      help:
        'Webhook delivery attempts by this instance, by outcome: delivered (2xx), rejected (another status), gone (410), ' +
        'timeout, unreachable (refused, reset, no such host), blocked (an address webhooks may not reach).',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.latency = new Histogram({
      name: 'petstore_webhook_attempt_duration_seconds',
      help: 'Time from connecting to the end of the answer (or the time-out), by outcome.',
      labelNames: ['outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.ended = new Counter({
      name: 'petstore_webhook_deliveries_total',
      help: 'Deliveries that ended in this instance, by outcome: delivered, or failed (the retry schedule used up, or 410).',
      labelNames: ['outcome'] as const,
      registers,
    });
    const backlog = new BacklogReadings(() => deliveries.backlog(new Date(clock.now())));
    const ageOf = (since: Date | undefined) => (since ? Math.max(0, (clock.now() - since.getTime()) / 1000) : 0);
    new Gauge({
      name: 'petstore_webhook_backlog_age_seconds',
      help:
        'How long the oldest waiting work has waited: an event not yet fanned out to its deliveries (stage="dispatch"), ' +
        'a delivery past its due time (stage="delivery"); 0 when nothing waits.',
      labelNames: ['stage'] as const,
      registers,
      async collect() {
        const now = await backlog.latest();
        if (!now) return;
        this.set({ stage: 'dispatch' }, ageOf(now.oldestUndispatchedAt));
        this.set({ stage: 'delivery' }, ageOf(now.oldestDueAt));
      },
    });
    new Gauge({
      name: 'petstore_webhook_backlog_deliveries',
      help: 'Deliveries due and not yet delivered (retries waiting for their time not counted).',
      registers,
      async collect() {
        const now = await backlog.latest();
        if (now) this.set(now.due);
      },
    });
  }

  attempted(outcome: AttemptOutcome, durationMs: number): void {
    this.attempts.inc({ outcome });
    this.latency.observe({ outcome }, durationMs / 1000);
  }

  deliveryEnded(outcome: 'delivered' | 'failed'): void {
    this.ended.inc({ outcome });
  }
}

/** How long a scrape waits for the backlog's read: 4 s (the pool's bounds) of a silent database held /metrics up. */
const BACKLOG_WAIT_MS = 500;

/**
 * The backlog, read at each scrape, for its gauges: one read at a time, shared by the gauges of a
 * scrape, and waited for at most BACKLOG_WAIT_MS. A read that is late (or fails) leaves the last
 * value it had; a late one still lands, for the next scrape.
 */
export class BacklogReadings {
  private last?: Backlog;
  private reading?: Promise<void>;

  constructor(
    private readonly read: () => Promise<Backlog>,
    private readonly waitMs = BACKLOG_WAIT_MS,
  ) {}

  /** The backlog as read now, or as last read when that takes longer than the wait; undefined until a read succeeded. */
  async latest(): Promise<Backlog | undefined> {
    this.reading ??= this.read()
      .then((backlog) => {
        this.last = backlog;
      })
      .catch(() => undefined)
      .finally(() => {
        this.reading = undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.reading, new Promise<void>((late) => (timer = setTimeout(late, this.waitMs).unref()))]);
    clearTimeout(timer);
    return this.last;
  }
}
