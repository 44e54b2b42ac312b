import { describe, expect, it } from '@jest/globals';
import type { ApiKeyService } from '../../src/auth/api-key.service.js';
import type { AppConfig } from '../../src/config/app-config.js';
import type { Clock } from '../../src/config/clock.js';
import type { Outbox } from '../../src/events/outbox.js';
import { Deliverer } from '../../src/webhook-delivery/deliverer.js';
import type { DeliveryAttempts } from '../../src/webhook-delivery/delivery-attempts.js';
import type { DeliveryLogRepository } from '../../src/webhook-delivery/delivery-log.repository.js';
import type { DeliveryMetrics } from '../../src/webhook-delivery/delivery-metrics.js';
import type { DeliveryQueueRepository } from '../../src/webhook-delivery/delivery-queue.repository.js';
import { POLL_MS } from '../../src/webhook-delivery/delivery-scheduler.js';
import type { EndpointHealth } from '../../src/webhook-delivery/endpoint-health.js';
import type { WebhookEndpointsRepository } from '../../src/webhook-delivery/webhook-endpoints.repository.js';

const unused = <T>() => ({}) as T;

describe('the deliverer while the database refuses', () => {
  it('tries again at the poll, not in a loop as fast as the refusals come', async () => {
    let reads = 0;
    // A database that refuses at once: every read fails, of the endpoints and of the newest event to fan out.
    const refused = async () => {
      reads++;
      throw new Error('connect ECONNREFUSED 127.0.0.1:3306');
    };
    const endpoints = { everyEnabled: refused } as unknown as WebhookEndpointsRepository;
    const queue = { lastUndispatched: refused } as unknown as DeliveryQueueRepository;
    const config = { webhooks: { deliver: true, attemptTimeoutMs: 10_000 } } as AppConfig;
    const deliverer = new Deliverer(
      config,
      { now: () => Date.now() } as Clock,
      queue,
      unused<DeliveryLogRepository>(),
      { close: () => undefined } as unknown as DeliveryAttempts,
      unused<EndpointHealth>(),
      unused<DeliveryMetrics>(),
      endpoints,
      { onCommitted: () => undefined } as unknown as Outbox,
      unused<ApiKeyService>(),
    );
    const started = performance.now();
    deliverer.onApplicationBootstrap();
    await new Promise((wait) => setTimeout(wait, 2 * POLL_MS + 100));
    await deliverer.onApplicationShutdown();
    // A pass at start and about one at each poll of the time that really passed; a loop as fast as
    // the refusals would make hundreds. Twice the polls, so that a busy machine's late timers (the
    // wait's too: 5 reads in 2 polls were seen in CI) cannot fail it.
    const polls = Math.floor((performance.now() - started) / POLL_MS);
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThanOrEqual(2 * polls + 2);
  });
});
