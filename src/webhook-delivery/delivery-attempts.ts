import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../config/clock.js';
import { type AttemptOutcome, outcomeOf } from './attempt-outcome.js';
import type { ClaimedDelivery, FinishedAttempt } from './claimed-delivery.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import { whatFollows } from './retry-policy.js';
import { signatureHeader } from './signature.js';
import type { StoredEndpoint } from './webhook-endpoints.repository.js';
import { WebhookSender } from './webhook-sender.js';

export const USER_AGENT = 'petstore-webhooks/1';

/** Makes one attempt of a claimed delivery: signs it, sends it, counts it, and says what follows. */
@Injectable()
export class DeliveryAttempts {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
    private readonly metrics: DeliveryMetrics,
  ) {}

  /** The attempt made, with what follows from it, and its outcome. */
  async make(delivery: ClaimedDelivery, endpoint: StoredEndpoint): Promise<{ finished: FinishedAttempt; outcome: AttemptOutcome }> {
    const attemptedAt = new Date(this.clock.now());
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const secrets = [endpoint.secret];
    if (endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > attemptedAt)
      secrets.push(endpoint.previousSecret);
    const posted = await this.sender.post(
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
    const outcome = outcomeOf(posted);
    this.metrics.attempted(outcome, posted.durationMs);
    const finished: FinishedAttempt = {
      delivery,
      attempt: {
        attemptedAt,
        status: posted.status ?? null,
        durationMs: posted.durationMs,
        error: posted.error?.slice(0, 255) ?? null,
        responseBody: posted.excerpt ?? null,
      },
      result: whatFollows(delivery.attempts, outcome, this.config.webhooks.retryScheduleSeconds, attemptedAt),
    };
    return { finished, outcome };
  }

  /** Closes the connections kept open for the next attempts. */
  close(): void {
    this.sender.close();
  }
}
