import { Injectable, Logger } from '@nestjs/common';
import type { AttemptOutcome } from './attempt-outcome.js';
import type { AttemptResult } from './retry-policy.js';
import { type StoredEndpoint, WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/**
 * How often this instance writes an endpoint's last success at most: what it is read for, whether
 * anything reached the endpoint since an event that failed its whole schedule, needs it no finer.
 */
const SUCCESS_WRITE_EVERY_MS = 1000;

/** An endpoint's health as its attempts tell it: its last success, and disabling one that only fails. */
@Injectable()
export class EndpointHealth {
  private readonly logger = new Logger('Webhooks');
  /** When this instance last wrote each endpoint's last success. */
  private readonly successWritten = new Map<number, number>();

  constructor(private readonly endpoints: WebhookEndpointsRepository) {}

  /** Acts on a recorded attempt to `endpoint`, of an event written at `eventCreatedAt`. */
  async attempted(endpoint: StoredEndpoint, outcome: AttemptOutcome, result: AttemptResult, attemptedAt: Date, eventCreatedAt: Date) {
    if (result.kind === 'delivered') await this.succeeded(endpoint, attemptedAt);
    else if (outcome === 'gone') await this.disable(endpoint, 'The endpoint answered 410 Gone.');
    else if (result.kind === 'failed') await this.disableIfFailingSince(endpoint, eventCreatedAt);
  }

  private async succeeded(endpoint: StoredEndpoint, at: Date): Promise<void> {
    if (at.getTime() - (this.successWritten.get(endpoint.rowId) ?? 0) < SUCCESS_WRITE_EVERY_MS) return;
    this.successWritten.set(endpoint.rowId, at.getTime());
    await this.endpoints.succeeded(endpoint, at);
  }

  /** A delivery used up its schedule: if nothing reached the endpoint in all that time, it is disabled. */
  private async disableIfFailingSince(endpoint: StoredEndpoint, since: Date): Promise<void> {
    const lastSuccess = await this.endpoints.lastSuccessAt(endpoint);
    if (lastSuccess && lastSuccess >= since) return;
    await this.disable(endpoint, `Every delivery failed from ${since.toISOString()} to the end of the retry schedule.`);
  }

  private async disable(endpoint: StoredEndpoint, reason: string): Promise<void> {
    if (await this.endpoints.disable(endpoint, reason)) this.logger.warn(`webhook endpoint ${endpoint.id} disabled: ${reason}`);
  }
}
