import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ApiKeyService } from '../auth/api-key.service.js';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../config/clock.js';
import { Outbox } from '../events/outbox.js';
import type { AttemptOutcome } from './attempt-outcome.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { DeliveryAttempts } from './delivery-attempts.js';
import { DeliveryLogRepository } from './delivery-log.repository.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import type { ClaimedDelivery, FinishedAttempt } from './claimed-delivery.js';
import { DeliveryQueueRepository } from './delivery-queue.repository.js';
import { DeliveryScheduler } from './delivery-scheduler.js';
import { DeliverySlots } from './delivery-slots.js';
import { EnabledEndpoints, type ReceivingEndpoint } from './enabled-endpoints.js';
import { EndpointHealth } from './endpoint-health.js';
import { readScopeOfEvent, makerMayRead } from './subscriptions.js';
import { type StoredEndpoint, WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/** Events fanned out per pass at most. */
const DISPATCH_BATCH = 200;
/** A claim outlives the longest attempt by this much, so that only a dead instance's claims expire. */
const LEASE_MARGIN_MS = 20_000;
const EVENTS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Delivers the outbox's events to webhook endpoints, in every instance beside the API (the work is a
 * few queries and one outgoing request per delivery; a separate worker process would add a process
 * to run and watch for no gain here), bounded in concurrency and memory. Each pass (DeliveryScheduler
 * says when): fan out new events to their endpoints' deliveries, claim the due ones with free slots
 * (DeliverySlots), make the attempts (DeliveryAttempts), record each (AttemptRecorder) and act on
 * what follows for its endpoint (EndpointHealth).
 */
@Injectable()
export class Deliverer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly scheduler = new DeliveryScheduler(() => this.pass());
  private readonly slots = new DeliverySlots();
  private readonly recorder: AttemptRecorder;
  private readonly enabled: EnabledEndpoints;
  private readonly underWay = new Set<Promise<void>>();
  private lastPurge = 0;
  private lastFailureLogged = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly queue: DeliveryQueueRepository,
    private readonly log: DeliveryLogRepository,
    private readonly attempts: DeliveryAttempts,
    private readonly health: EndpointHealth,
    private readonly metrics: DeliveryMetrics,
    endpoints: WebhookEndpointsRepository,
    outbox: Outbox,
    keys: ApiKeyService,
  ) {
    // Claims wait while a whole batch is unrecorded (pass()); they may go on once it is written.
    this.recorder = new AttemptRecorder(queue, () => this.scheduler.soon(0));
    this.enabled = new EnabledEndpoints(endpoints, (keyId) => keys.scopesNow(keyId));
    outbox.onCommitted(() => this.wake());
  }

  onApplicationBootstrap(): void {
    if (this.config.webhooks.deliver) this.scheduler.start();
  }

  /** Stops claiming; attempts under way finish (each within its time-out) or their claims expire. */
  async onApplicationShutdown(): Promise<void> {
    await this.scheduler.stop();
    await Promise.allSettled([...this.underWay]);
    await this.recorder.drained();
    this.attempts.close();
  }

  /** Looks at the outbox soon (after the pass under way, if one is). */
  wake(delayMs?: number): void {
    this.scheduler.wake(delayMs);
  }

  /** An endpoint was changed (disabled, deleted, its secret rotated): the next pass reads them again. */
  endpointsChanged(): void {
    this.enabled.changed();
  }

  /** One pass; answers whether it left work at hand (a full batch fanned out or claimed). */
  private async pass(): Promise<boolean> {
    let busy = false;
    try {
      const now = new Date(this.clock.now());
      const dispatching = this.scheduler.dispatchDue;
      // Marked before the first statement: a database that refuses is asked again at the poll, not at once.
      if (dispatching) this.scheduler.dispatching();
      // Which events go out is read before the endpoints they go to: read after, an endpoint and then
      // an event made while the endpoints were read sent that event without that endpoint, for good.
      const upTo = dispatching ? await this.queue.lastUndispatched() : undefined;
      const endpoints = await this.enabled.read(dispatching);
      if (upTo !== undefined) {
        busy = (await this.queue.dispatch(endpoints, now, DISPATCH_BATCH, upTo)) === DISPATCH_BATCH;
        if (busy) this.scheduler.dispatching(true);
      }
      busy = this.start(endpoints, await this.claim(endpoints, now)) || busy;
      if (now.getTime() - this.lastPurge > PURGE_EVERY_MS) {
        this.lastPurge = now.getTime();
        await this.log.purge(new Date(now.getTime() - EVENTS_KEPT_MS));
      }
    } catch (error) {
      // The database is down or refused: the work stays in it, and the next pass tries again. While
      // the service stops, its pool may close under a pass: nothing to say then.
      if (!this.scheduler.isStopped && Date.now() - this.lastFailureLogged > 60_000) {
        this.lastFailureLogged = Date.now();
        this.logger.warn(`webhook delivery paused: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return busy;
  }

  private async claim(endpoints: readonly ReceivingEndpoint[], now: Date): Promise<ClaimedDelivery[]> {
    if (this.recorder.full) return [];
    const free = this.slots.freeByEndpoint(endpoints.map(({ rowId }) => rowId));
    const lease = new Date(now.getTime() + this.config.webhooks.attemptTimeoutMs + LEASE_MARGIN_MS);
    return this.queue.claim(free, now, lease, this.slots.free);
  }

  /** Starts the attempts, each in a slot of its endpoint's; answers whether the batch was full. */
  private start(endpoints: readonly ReceivingEndpoint[], claimed: readonly ClaimedDelivery[]): boolean {
    const byRow = new Map(endpoints.map((endpoint) => [endpoint.rowId, endpoint]));
    for (const delivery of claimed) {
      const endpoint = byRow.get(delivery.endpointRowId);
      if (!endpoint) continue;
      // Queued while its maker's key could read it (a retry, a redelivery, a recovery): not sent once it cannot.
      if (!makerMayRead(endpoint.makerScopes, delivery.eventType)) {
        this.withhold(delivery);
        continue;
      }
      this.slots.take(endpoint.rowId);
      // The slot is free once the request is over; recording it goes on beside the next attempts.
      const made = this.attempts.make(delivery, endpoint).finally(() => {
        this.slots.release(endpoint.rowId);
        // Claim the next delivery at once (the slot would otherwise wait out the wake delay).
        this.scheduler.soon(0);
      });
      const settled = made
        .then(({ finished, outcome }) => this.settle(finished, outcome, endpoint))
        .finally(() => this.underWay.delete(settled));
      this.underWay.add(settled);
    }
    return claimed.length > 0 && this.slots.free > 0;
  }

  /** Ends a delivery its endpoint's maker may no longer read, unsent: recorded as failed, with why, and no mark against the endpoint. */
  private withhold(delivery: ClaimedDelivery): void {
    const scope = readScopeOfEvent(delivery.eventType);
    const finished: FinishedAttempt = {
      delivery,
      attempt: {
        attemptedAt: new Date(this.clock.now()),
        status: null,
        durationMs: 0,
        error: `Not sent: the API key that made this endpoint does not hold ${scope} now.`,
        responseBody: null,
      },
      result: { kind: 'failed' },
    };
    const recorded = this.recorder
      .record(finished)
      .then(() => undefined)
      .catch((error: unknown) =>
        this.logger.warn(`could not record a withheld webhook delivery: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => this.underWay.delete(recorded));
    this.underWay.add(recorded);
  }

  /** Records the attempt, and acts on what follows for its endpoint. */
  private async settle(finished: FinishedAttempt, outcome: AttemptOutcome, endpoint: StoredEndpoint): Promise<void> {
    const { delivery, attempt, result } = finished;
    try {
      if (!(await this.recorder.record(finished))) return;
      if (result.kind !== 'retry') this.metrics.deliveryEnded(result.kind);
      await this.health.attempted(endpoint, outcome, result, attempt.attemptedAt, delivery.eventCreatedAt);
    } catch (error) {
      // Not recorded: the claim expires and the attempt is made again (a duplicate, same webhook-id).
      this.logger.warn(`could not record a webhook attempt: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
