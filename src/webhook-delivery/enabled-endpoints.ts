import type { StoredEndpoint, WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/**
 * A pass that only claims (a slot was freed) uses the endpoints read by the last pass this young,
 * rather than a read per freed slot; a change made through this instance drops them at once.
 */
const FRESH_MS = 100;

/** The enabled endpoints as the deliverer's passes read them. */
export class EnabledEndpoints {
  private known?: { at: number; endpoints: readonly StoredEndpoint[] };
  private changedAt = 0;

  constructor(private readonly endpoints: WebhookEndpointsRepository) {}

  /** An endpoint was changed (disabled, deleted, its secret rotated): the next pass reads them again. */
  changed(): void {
    this.changedAt = Date.now();
  }

  /** Read again when `fresh` (fanning out must see every change) or when the last read is stale. */
  async read(fresh: boolean): Promise<readonly StoredEndpoint[]> {
    const known = this.known;
    if (fresh || !known || Date.now() - known.at > FRESH_MS || known.at <= this.changedAt) {
      // Stamped with when the read began: a change made while it ran makes it stale.
      const at = Date.now();
      const endpoints = await this.endpoints.enabled();
      this.known = { at, endpoints };
      return endpoints;
    }
    return known.endpoints;
  }
}
