import type { Scope } from '../auth/scopes.js';
import type { StoredEndpoint, WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

/**
 * A pass that only claims (a slot was freed) uses the endpoints read by the last pass this young,
 * rather than a read per freed slot; a change made through this instance drops them at once.
 */
const FRESH_MS = 100;
/** A maker's scopes are read again after this long: a revoked or narrowed key withholds its events within 1 s. */
const MAKER_SCOPES_MS = 500;

/** An enabled endpoint with what its maker's key may read now (null: made before 1.5.1, its maker unknown). */
export interface ReceivingEndpoint extends StoredEndpoint {
  readonly makerScopes: ReadonlySet<Scope> | null;
}

/** The scopes a key (by its principal id) holds now: ApiKeyService.scopesNow. */
export type ScopesNow = (keyId: string) => Promise<ReadonlySet<Scope>>;

/** The enabled endpoints of every environment, each with its own, as the deliverer's passes read them. */
export class EnabledEndpoints {
  private known?: { at: number; endpoints: readonly ReceivingEndpoint[] };
  private changedAt = 0;
  private readonly makers = new Map<string, { at: number; scopes: ReadonlySet<Scope> }>();

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly scopesNow: ScopesNow,
  ) {}

  /** An endpoint was changed (disabled, deleted, its secret rotated): the next pass reads them again. */
  changed(): void {
    this.changedAt = Date.now();
  }

  /** Read again when `fresh` (fanning out must see every change) or when the last read is stale. */
  async read(fresh: boolean): Promise<readonly ReceivingEndpoint[]> {
    const known = this.known;
    if (fresh || !known || Date.now() - known.at > FRESH_MS || known.at <= this.changedAt) {
      // Stamped with when the read began: a change made while it ran makes it stale.
      const at = Date.now();
      const stored = await this.endpoints.everyEnabled();
      const endpoints: ReceivingEndpoint[] = [];
      for (const endpoint of stored)
        endpoints.push({ ...endpoint, makerScopes: endpoint.createdBy === null ? null : await this.makerScopes(endpoint.createdBy, at) });
      this.known = { at, endpoints };
      return endpoints;
    }
    return known.endpoints;
  }

  private async makerScopes(keyId: string, now: number): Promise<ReadonlySet<Scope>> {
    const known = this.makers.get(keyId);
    if (known && now - known.at < MAKER_SCOPES_MS) return known.scopes;
    const scopes = await this.scopesNow(keyId);
    this.makers.set(keyId, { at: now, scopes });
    return scopes;
  }
}
