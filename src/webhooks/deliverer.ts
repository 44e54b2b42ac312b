import { performance } from 'node:perf_hooks';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../config/clock.js';
import { DeliveriesRepository, type AttemptResult, type ClaimedDelivery, type FinishedAttempt } from './deliveries.repository.js';
import { type AttemptOutcome, DeliveryMetrics, outcomeOf } from './delivery-metrics.js';
import { Outbox } from '../events/outbox.js';
import { AddressPolicy, WebhookSender } from './outbound.js';
import { signatureHeader } from './signature.js';
import { type StoredEndpoint, WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/** Deliveries in flight from one instance at most; each holds one socket and at most 64 KiB. */
export const MAX_IN_FLIGHT = 32;
/** Per endpoint, so that one that always times out holds at most this many of the slots. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 8;
/** How often the outbox is looked at when nothing woke the deliverer. */
const POLL_MS = 500;
/**
 * Requests come first: while the event loop was busier than this over the last sample, deliveries
 * yield (a pass at most every YIELD_MS) and the outbox keeps the rest until the load eases.
 */
const BUSY_LOOP = 0.9;
const LOOP_SAMPLE_MS = 100;
const YIELD_MS = 100;
/** Events fanned out per pass at most. */
const DISPATCH_BATCH = 200;
/**
 * A pass that only claims (a slot was freed) uses the endpoints read by the last pass this young: a
 * read per freed slot was a query per delivery. Changes made through this instance drop it at once.
 */
const ENDPOINTS_FRESH_MS = 100;
/**
 * A commit wakes the deliverer this soon, not at once: under load, the events of many creates are
 * fanned out by one pass (a pass per create cost createPet a fifth of its throughput).
 */
const WAKE_DELAY_MS = 20;
/** A claim outlives the longest attempt by this much, so that only a dead instance's claims expire. */
const LEASE_MARGIN_MS = 20_000;
const EVENTS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
export const USER_AGENT = 'petstore-webhooks/1';
const SUCCESS_WRITE_EVERY_MS = 1000;
/**
 * Attempts are recorded in batches: those ending this close together go in one transaction (a
 * transaction per one or two attempts was most of delivery's cost in the database).
 */
const RECORD_DELAY_MS = 10;
/** Attempts per recording transaction at most; no more are claimed while this many wait to be recorded. */
const RECORD_BATCH = 64;

/**
 * Delivers the outbox's events to webhook endpoints, in every instance beside the API (the work is a
 * few queries and one outgoing request per delivery; a separate worker process would add a process
 * to run and watch for no gain here), bounded in concurrency and memory. Each pass: fan out new
 * events to their endpoints' deliveries, claim the due ones with room, attempt them, record each
 * attempt and what follows (delivered, retried on the schedule, failed). Woken at once by a commit
 * in this instance, and every POLL_MS in any case (for other instances' events and retries).
 */
@Injectable()
export class Deliverer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly sender: WebhookSender;
  private readonly inFlight = new Map<number, number>();
  private inFlightTotal = 0;
  private timer?: NodeJS.Timeout;
  private loopSampler?: NodeJS.Timeout;
  private yielding = false;
  private lastPassAt = 0;
  private passing?: Promise<void>;
  private nextPassAt = 0;
  /** When the next pass fans out new events (a commit, an API call or the poll asked for it). */
  private dispatchDueAt = 0;
  private known?: { at: number; endpoints: readonly StoredEndpoint[] };
  private endpointsChangedAt = 0;
  private running = false;
  /** When a wake came during a pass: how soon it asked for the next one. */
  private againIn?: number;
  private stopped = true;
  private lastPurge = 0;
  private lastFailureLogged = 0;
  private readonly attempts = new Set<Promise<void>>();
  private readonly unrecorded: { finished: FinishedAttempt; resolve: (ours: boolean) => void; reject: (error: unknown) => void }[] = [];
  private recording?: Promise<void>;
  /** When this instance last wrote each endpoint's last success. */
  private readonly successWritten = new Map<number, number>();

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly deliveries: DeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly metrics: DeliveryMetrics,
    outbox: Outbox,
  ) {
    this.sender = new WebhookSender(new AddressPolicy(config.webhooks.allowedNetworks), config.webhooks.attemptTimeoutMs, MAX_IN_FLIGHT);
    outbox.onCommitted(() => this.wake());
  }

  onApplicationBootstrap(): void {
    if (!this.config.webhooks.deliver) return;
    this.stopped = false;
    let sampled = performance.eventLoopUtilization();
    this.loopSampler = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.yielding = performance.eventLoopUtilization(now, sampled).utilization > BUSY_LOOP;
      sampled = now;
    }, LOOP_SAMPLE_MS);
    this.loopSampler.unref();
    this.schedule(0);
  }

  /** Stops claiming; attempts under way finish (each within its time-out) or their claims expire. */
  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.loopSampler);
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.passing;
    await Promise.allSettled([...this.attempts]);
    await this.recording;
    this.sender.close();
  }

  /** Looks at the outbox within `delayMs` (after the pass under way, if one is). */
  wake(delayMs = WAKE_DELAY_MS): void {
    this.dispatchDueAt = Math.min(this.dispatchDueAt, Date.now() + delayMs);
    this.soon(delayMs);
  }

  /** An endpoint was changed (disabled, deleted, its secret rotated): the next pass reads them again. */
  endpointsChanged(): void {
    this.endpointsChangedAt = Date.now();
  }

  /** Runs a pass within `delayMs`, after the one under way if one is. */
  private soon(delayMs: number): void {
    if (this.stopped) return;
    if (this.running) this.againIn = Math.min(this.againIn ?? delayMs, delayMs);
    else this.schedule(delayMs);
  }

  /** Runs a pass in `delayMs`, unless one is due sooner; no sooner than YIELD_MS after the last while requests keep the loop busy. */
  private schedule(delayMs: number): void {
    const now = Date.now();
    const at = Math.max(now + delayMs, this.yielding ? this.lastPassAt + YIELD_MS : 0);
    if (this.timer && this.nextPassAt <= at) return;
    clearTimeout(this.timer);
    this.nextPassAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.passing = this.pass();
    }, at - now);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    if (this.stopped || this.running) return;
    this.running = true;
    this.lastPassAt = Date.now();
    let busy = false;
    try {
      const now = new Date(this.clock.now());
      // Fanning out is done when asked for, not by every pass: a pass per freed slot would be a
      // transaction per delivery, most of them finding nothing new.
      const dispatching = Date.now() >= this.dispatchDueAt;
      const endpoints = await this.enabledEndpoints(dispatching);
      if (dispatching) {
        this.dispatchDueAt = Date.now() + POLL_MS;
        busy = (await this.deliveries.dispatch(endpoints, now, DISPATCH_BATCH)) === DISPATCH_BATCH;
        if (busy) this.dispatchDueAt = 0;
      }
      busy = this.start(endpoints, await this.claim(endpoints, now)) || busy;
      if (now.getTime() - this.lastPurge > PURGE_EVERY_MS) {
        this.lastPurge = now.getTime();
        await this.deliveries.purge(new Date(now.getTime() - EVENTS_KEPT_MS));
      }
    } catch (error) {
      // The database is down or refused: the work stays in it, and the next pass tries again. While
      // the service stops, its pool may close under a pass: nothing to say then.
      if (!this.stopped && Date.now() - this.lastFailureLogged > 60_000) {
        this.lastFailureLogged = Date.now();
        this.logger.warn(`webhook delivery paused: ${error instanceof Error ? error.message : String(error)}`);
      }
    } finally {
      this.running = false;
      if (!this.stopped) this.schedule(busy ? 0 : Math.min(this.againIn ?? POLL_MS, Math.max(0, this.dispatchDueAt - Date.now())));
      this.againIn = undefined;
    }
  }

  /** The enabled endpoints: read again when fanning out (which must see every change) or when the last read is stale. */
  private async enabledEndpoints(fresh: boolean): Promise<readonly StoredEndpoint[]> {
    const known = this.known;
    if (fresh || !known || Date.now() - known.at > ENDPOINTS_FRESH_MS || known.at <= this.endpointsChangedAt) {
      // Stamped with when the read began: a change made while it ran makes it stale.
      const at = Date.now();
      const endpoints = await this.endpoints.enabled();
      this.known = { at, endpoints };
      return endpoints;
    }
    return known.endpoints;
  }

  private async claim(endpoints: readonly StoredEndpoint[], now: Date): Promise<ClaimedDelivery[]> {
    if (this.unrecorded.length >= RECORD_BATCH) return [];
    const room = MAX_IN_FLIGHT - this.inFlightTotal;
    const rooms = new Map<number, number>();
    for (const { rowId } of endpoints) {
      const left = MAX_IN_FLIGHT_PER_ENDPOINT - (this.inFlight.get(rowId) ?? 0);
      if (left > 0) rooms.set(rowId, left);
    }
    const lease = new Date(now.getTime() + this.config.webhooks.attemptTimeoutMs + LEASE_MARGIN_MS);
    return this.deliveries.claim(rooms, now, lease, room);
  }

  /** Starts the attempts, keeping each endpoint within its share; answers whether the batch was full. */
  private start(endpoints: readonly StoredEndpoint[], claimed: readonly ClaimedDelivery[]): boolean {
    const byRow = new Map(endpoints.map((endpoint) => [endpoint.rowId, endpoint]));
    for (const delivery of claimed) {
      const endpoint = byRow.get(delivery.endpointRowId);
      if (!endpoint) continue;
      this.inFlight.set(endpoint.rowId, (this.inFlight.get(endpoint.rowId) ?? 0) + 1);
      this.inFlightTotal++;
      // The slot is free once the request is over; recording it goes on beside the next attempts.
      const sent = this.send(delivery, endpoint).finally(() => {
        this.inFlight.set(endpoint.rowId, (this.inFlight.get(endpoint.rowId) ?? 1) - 1);
        this.inFlightTotal--;
        // Claim the next delivery at once (the slot would otherwise wait out the wake delay).
        this.soon(0);
      });
      const attempt = sent
        .then(({ finished, outcome }) => this.settle(finished, outcome, endpoint))
        .finally(() => this.attempts.delete(attempt));
      this.attempts.add(attempt);
    }
    return claimed.length > 0 && this.inFlightTotal < MAX_IN_FLIGHT;
  }

  /** Makes the attempt; answers it with what follows from it, and its outcome. */
  private async send(delivery: ClaimedDelivery, endpoint: StoredEndpoint): Promise<{ finished: FinishedAttempt; outcome: AttemptOutcome }> {
    const attemptedAt = new Date(this.clock.now());
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const secrets = [endpoint.secret];
    if (endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > attemptedAt)
      secrets.push(endpoint.previousSecret);
    const outcome = await this.sender.post(
      new URL(endpoint.url),
      {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, delivery.eventId, timestamp, delivery.payload),
      },
      delivery.payload,
    );
    const counted = outcomeOf(outcome);
    this.metrics.attempted(counted, outcome.durationMs);
    const finished: FinishedAttempt = {
      delivery,
      attempt: {
        attemptedAt,
        status: outcome.status ?? null,
        durationMs: outcome.durationMs,
        error: outcome.error?.slice(0, 255) ?? null,
        responseBody: outcome.excerpt ?? null,
      },
      result: this.next(delivery, counted === 'delivered', counted === 'gone', attemptedAt),
    };
    return { finished, outcome: counted };
  }

  /** Records the attempt, and acts on what follows: the endpoint's last success, or disabling it. */
  private async settle(finished: FinishedAttempt, outcome: AttemptOutcome, endpoint: StoredEndpoint): Promise<void> {
    const { delivery, attempt, result } = finished;
    try {
      if (!(await this.record(finished))) return;
      if (result.kind !== 'retry') this.metrics.deliveryEnded(result.kind);
      if (result.kind === 'delivered') await this.recordSuccess(endpoint, attempt.attemptedAt);
      else if (outcome === 'gone') await this.disable(endpoint, 'The endpoint answered 410 Gone.');
      else if (result.kind === 'failed') await this.disableIfFailingSince(endpoint, delivery.eventCreatedAt);
    } catch (error) {
      // Not recorded: the claim expires and the attempt is made again (a duplicate, same webhook-id).
      this.logger.warn(`could not record a webhook attempt: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Queues an attempt to be recorded: the attempts that end within RECORD_DELAY_MS of it are written
   * with it, in one transaction, and those ending while a batch is written go in the next. Answers
   * whether the claim was still this instance's.
   */
  private record(finished: FinishedAttempt): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.unrecorded.push({ finished, resolve, reject });
      this.recording ??= this.recordQueued();
    });
  }

  private async recordQueued(): Promise<void> {
    try {
      await new Promise((resolve) => setTimeout(resolve, RECORD_DELAY_MS));
      while (this.unrecorded.length > 0) {
        const batch = this.unrecorded.splice(0, RECORD_BATCH);
        try {
          const ours = await this.deliveries.finish(batch.map(({ finished }) => finished));
          batch.forEach(({ resolve }, at) => resolve(ours[at]));
        } catch (error) {
          for (const { reject } of batch) reject(error);
        }
      }
    } finally {
      this.recording = undefined;
      // Claims wait while too many attempts are unrecorded (claim()); they may go on now.
      this.soon(0);
    }
  }

  private next(delivery: ClaimedDelivery, ok: boolean, gone: boolean, now: Date): AttemptResult {
    if (ok) return { kind: 'delivered' };
    const schedule = this.config.webhooks.retryScheduleSeconds;
    const made = delivery.attempts + 1;
    if (gone || made >= schedule.length) return { kind: 'failed' };
    return { kind: 'retry', at: new Date(now.getTime() + schedule[made] * 1000) };
  }

  /**
   * An endpoint's last success, written at most once a second per instance (not once per delivery: at
   * hundreds a second that was a write each): what it is read for, whether anything reached the
   * endpoint since an event that failed its whole schedule, does not need it finer.
   */
  private async recordSuccess(endpoint: StoredEndpoint, at: Date): Promise<void> {
    if (at.getTime() - (this.successWritten.get(endpoint.rowId) ?? 0) < SUCCESS_WRITE_EVERY_MS) return;
    this.successWritten.set(endpoint.rowId, at.getTime());
    await this.endpoints.succeeded(endpoint.rowId, at);
  }

  /** A delivery used up its schedule: if nothing reached the endpoint in all that time, it is disabled. */
  private async disableIfFailingSince(endpoint: StoredEndpoint, since: Date): Promise<void> {
    const lastSuccess = await this.endpoints.lastSuccessAt(endpoint.rowId);
    if (lastSuccess && lastSuccess >= since) return;
    await this.disable(endpoint, `Every delivery failed from ${since.toISOString()} to the end of the retry schedule.`);
  }

  private async disable(endpoint: StoredEndpoint, reason: string): Promise<void> {
    if (await this.endpoints.disable(endpoint.rowId, reason)) this.logger.warn(`webhook endpoint ${endpoint.id} disabled: ${reason}`);
  }
}
