import { timingSafeEqual } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../config/clock.js';
import { SharedRedis } from '../redis/shared-redis.js';
import { hashApiKey } from './api-key-secret.js';
import { ApiKeyExpiredException, ApiKeyInvalidException, ApiKeyMissingException } from './api-key.exceptions.js';
import type { ApiKeyPrincipal } from './api-key.principal.js';
import { Environment } from '../environments/environment.js';
import { ApiKeysRepository, type KeyToCheck } from './api-keys.repository.js';
import { readBearerToken } from './bearer-token.js';
import { FailedAuthentications } from './failed-authentications.js';
import { readScopes, type Scope, SCOPES } from './scopes.js';

/** `last_used_at` is worth knowing to the minute, never worth a write per request. */
const LAST_USED_INTERVAL_MS = 60_000;
/** Unknown keys are remembered too, so a stream of made-up keys cannot reach the database; bounded. */
const MAX_CACHED_KEYS = 10_000;

/** An API_KEYS key holds every scope. */
const ALL_SCOPES: ReadonlySet<Scope> = new Set(SCOPES);
const NO_SCOPES: ReadonlySet<Scope> = new Set();
/** Rolls followed from a key to its newest successor; a chain longer than this is not a real one. */
const MAX_ROLLS_FOLLOWED = 100;

/**
 * The Redis channel the key tool announces a changed key on (revoked, rolled, new scopes); the
 * message is the key's id. Named for its first use, and kept so for instances of older versions.
 */
export const KEY_CHANGES_CHANNEL = 'revocations';
/** A key that expires within this long is announced: a response header, and a warning in the log. */
export const EXPIRY_NOTICE_MS = 7 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The principal id of a bootstrap key: stable across restarts and instances, and not the key. */
export function bootstrapKeyId(key: string): string {
  return `env-${hashApiKey(key).slice(0, 12)}`;
}

interface StoredKey {
  readonly id: number;
  readonly principal: ApiKeyPrincipal;
}

interface CacheEntry {
  readonly expiresAt: number;
  /** Shared by concurrent requests with the same key: one lookup, not one each. */
  readonly lookup: Promise<StoredKey | undefined>;
  /** What the lookup found, once it has (null: no such key), for the requests after it to read at once. */
  found?: StoredKey | null;
}

/**
 * Decides whether a request's bearer credential is a valid API key: a bootstrap key from API_KEYS,
 * or a stored, unrevoked one. A checked stored key is trusted for `apiKeyCacheMs` (at most 30 s), so
 * authenticating costs no database round trip; a change to it reaches every instance within 1 s:
 * announced through Redis when there is one, and read again from the database twice a second
 * (`recheck`) whether there is or not.
 */
@Injectable()
export class ApiKeyService implements OnModuleInit {
  private readonly logger = new Logger('ApiKeyService');
  private readonly bootstrapKeys: readonly { hash: Buffer; principal: ApiKeyPrincipal }[];
  private readonly cache = new Map<string, CacheEntry>();
  /** Each bearer token's hash, for as long as its key is trusted: a SHA-256 per request was 2% of the CPU. */
  private readonly hashes = new Map<string, { readonly hash: string; readonly until: number }>();
  private readonly lastUseRecorded = new Map<number, number>();
  /** The hash each stored key was found by, so that a change can drop its cache entry. */
  private readonly hashById = new Map<number, string>();
  /** What each trusted stored key's row said when it was read (keyState), to tell a changed row from the same one. */
  private readonly stateById = new Map<number, string>();
  private readonly failures: FailedAuthentications;
  /** When each soon-expiring key was last warned about. */
  private readonly expiryWarnedAt = new Map<string, number>();

  constructor(
    private readonly config: AppConfig,
    private readonly store: ApiKeysRepository,
    private readonly redis: SharedRedis,
    private readonly clock: Clock,
  ) {
    this.bootstrapKeys = config.apiKeys.map((key) => ({
      hash: Buffer.from(hashApiKey(key), 'hex'),
      principal: { keyId: bootstrapKeyId(key), name: 'API_KEYS', scopes: ALL_SCOPES, expiresAt: null, environment: Environment.LIVE },
    }));
    this.failures = new FailedAuthentications(config.authFailuresPerMinute);
  }

  /** With REDIS_URL, a change announced by the key tool reaches this instance at once, not after the cache's time. */
  onModuleInit(): void {
    this.redis.subscribe(KEY_CHANGES_CHANNEL, (message) => this.forget(Number(message)));
  }

  /**
   * The scopes the key with this principal id holds now, for what it set up and that acts after its
   * request (a webhook endpoint's deliveries): an API_KEYS key's every scope while it is configured;
   * a stored key's own, or once rolled its newest successor's (a roll must not stop its endpoints);
   * none when that key is revoked, expired or gone (a revoked key's endpoints get nothing it could read).
   */
  async scopesNow(keyId: string): Promise<ReadonlySet<Scope>> {
    if (this.bootstrapKeys.some(({ principal }) => principal.keyId === keyId)) return ALL_SCOPES;
    const stored = /^key-(\d+)$/.exec(keyId);
    if (!stored) return NO_SCOPES;
    let id = Number(stored[1]);
    for (let rolls = 0; rolls < MAX_ROLLS_FOLLOWED; rolls++) {
      const successor = await this.store.successorOf(id);
      if (successor === undefined) break;
      id = successor;
    }
    const key = await this.store.find(id);
    if (!key || key.revokedAt || (key.expiresAt && key.expiresAt.getTime() <= this.clock.now())) return NO_SCOPES;
    return readScopes(key.scopes);
  }

  /** Drops what this instance remembers of a stored key, so its next use asks the database. */
  forget(id: number): void {
    const hash = this.hashById.get(id);
    if (hash !== undefined) this.cache.delete(hash);
    this.stateById.delete(id);
  }

  /**
   * Tells this instance and, with Redis, every other at once that these keys changed (a sandbox's,
   * revoked with it), so their next use asks the database. Without Redis the others find it out
   * within a second, as of any change (recheck).
   */
  async changed(ids: readonly number[]): Promise<void> {
    for (const id of ids) this.forget(id);
    await Promise.all(ids.map((id) => this.redis.publish(KEY_CHANGES_CHANNEL, String(id))));
  }

  /**
   * Reads again the rows of the stored keys this instance trusts now, in one statement, and forgets
   * each that is gone or changed (revoked, rolled, its expiry or scopes moved; by the key tool or by
   * hand): its next use asks the database. Without Redis, this is how a change reaches every
   * instance (TrustedKeysRecheck runs it twice a second); it costs nothing when no stored key is in use.
   */
  async recheck(): Promise<void> {
    const now = Date.now();
    const trusted: number[] = [];
    for (const id of this.stateById.keys()) {
      const entry = this.cache.get(this.hashById.get(id)!);
      if (entry && entry.expiresAt > now) trusted.push(id);
      else this.stateById.delete(id);
    }
    if (trusted.length === 0) return;
    const rows = new Map((await this.store.findToCheck(trusted)).map((row) => [row.id, keyState(row)]));
    for (const id of trusted) if (rows.get(id) !== this.stateById.get(id)) this.forget(id);
  }

  /**
   * The principal for an Authorization header sent from `clientAddress`; throws the 401 the client
   * should see otherwise, or 429 when that address has failed too often. At once when this instance
   * knows the key already (almost every request), else once the database has said.
   */
  authenticate(authorization: string | undefined, clientAddress: string): ApiKeyPrincipal | Promise<ApiKeyPrincipal> {
    const token = readBearerToken(authorization);
    const found = token === undefined ? undefined : this.findKey(this.hashOf(token), clientAddress);
    return found instanceof Promise
      ? found.then((principal) => this.admit(token, principal, clientAddress))
      : this.admit(token, found, clientAddress);
  }

  private admit(token: string | undefined, principal: ApiKeyPrincipal | undefined, clientAddress: string): ApiKeyPrincipal {
    if (principal && (principal.expiresAt === null || principal.expiresAt > this.clock.now())) return principal;
    this.failures.refuseIfOverLimit(clientAddress);
    this.failures.record(clientAddress);
    if (principal) throw new ApiKeyExpiredException(new Date(principal.expiresAt!));
    throw token === undefined ? new ApiKeyMissingException() : new ApiKeyInvalidException();
  }

  /**
   * When the principal's key expires, if that is within EXPIRY_NOTICE_MS: the caller tells the
   * client (API-Key-Expires), and the log says it at `warn` once a day per instance and key, so
   * operators can reach the key's owner in time.
   */
  expiryNotice(principal: ApiKeyPrincipal): Date | undefined {
    if (principal.expiresAt === null) return undefined;
    const now = this.clock.now();
    if (principal.expiresAt - now > EXPIRY_NOTICE_MS) return undefined;
    const expiresAt = new Date(principal.expiresAt);
    if (now - (this.expiryWarnedAt.get(principal.keyId) ?? -Infinity) >= DAY_MS) {
      this.expiryWarnedAt.set(principal.keyId, now);
      this.logger.warn(`API key ${principal.keyId} ("${principal.name}") expires at ${expiresAt.toISOString()}: its owner should roll it`);
    }
    return expiresAt;
  }

  private hashOf(token: string): string {
    const now = Date.now();
    const known = this.hashes.get(token);
    if (known && known.until > now) return known.hash;
    const hash = hashApiKey(token);
    this.hashes.delete(token);
    if (this.hashes.size >= MAX_CACHED_KEYS) this.hashes.delete(this.hashes.keys().next().value!);
    this.hashes.set(token, { hash, until: now + this.config.apiKeyCacheMs });
    return hash;
  }

  private findKey(hash: string, clientAddress: string): ApiKeyPrincipal | undefined | Promise<ApiKeyPrincipal | undefined> {
    const bootstrap = this.bootstrapKeys.length > 0 ? this.findBootstrapKey(Buffer.from(hash, 'hex')) : undefined;
    return bootstrap ?? this.findStoredKey(hash, clientAddress);
  }

  /** Compares with every bootstrap key in constant time, so timing tells nothing about any of them. */
  private findBootstrapKey(hash: Buffer): ApiKeyPrincipal | undefined {
    let found: ApiKeyPrincipal | undefined;
    for (const key of this.bootstrapKeys) {
      if (timingSafeEqual(key.hash, hash)) found = key.principal;
    }
    return found;
  }

  private findStoredKey(hash: string, clientAddress: string): ApiKeyPrincipal | undefined | Promise<ApiKeyPrincipal | undefined> {
    const now = Date.now();
    const entry = this.cache.get(hash);
    if (entry && entry.expiresAt > now)
      return entry.found === undefined ? entry.lookup.then((stored) => this.used(stored, now)) : this.used(entry.found, now);
    return this.lookUpAgain(hash, clientAddress, entry, now);
  }

  private async lookUpAgain(
    hash: string,
    clientAddress: string,
    expired: CacheEntry | undefined,
    now: number,
  ): Promise<ApiKeyPrincipal | undefined> {
    // A lookup for a key this instance has not seen valid is what a flood of made-up keys costs.
    const seenValid = expired !== undefined && (await expired.lookup.catch(() => undefined)) !== undefined;
    const lookup = seenValid ? this.lookUp(hash) : this.failures.pace(clientAddress, () => this.lookUp(hash));
    const entry: CacheEntry = { expiresAt: now + this.config.apiKeyCacheMs, lookup };
    this.remember(hash, entry);
    lookup.then(
      (stored) => (entry.found = stored ?? null),
      () => undefined,
    );
    return this.used(await lookup, now);
  }

  private used(stored: StoredKey | null | undefined, now: number): ApiKeyPrincipal | undefined {
    if (stored) this.recordUse(stored.id, now);
    return stored?.principal;
  }

  private async lookUp(hash: string): Promise<StoredKey | undefined> {
    try {
      const row = await this.store.findByHash(hash);
      // The database found the row by its hash; comparing again in constant time keeps the rule
      // "keys are compared in constant time" true of our own code whatever the index does.
      if (!row || row.revokedAt || !timingSafeEqual(Buffer.from(row.keyHash, 'hex'), Buffer.from(hash, 'hex'))) {
        return undefined;
      }
      this.hashById.set(row.id, hash);
      this.stateById.set(row.id, keyState(row));
      return {
        id: row.id,
        principal: {
          keyId: `key-${row.id}`,
          name: row.name,
          scopes: readScopes(row.scopes),
          expiresAt: row.expiresAt?.getTime() ?? null,
          environment: Environment.of(row.environment),
        },
      };
    } catch (error) {
      // A failed lookup decides nothing: the next request asks again.
      this.cache.delete(hash);
      throw error;
    }
  }

  private remember(hash: string, entry: CacheEntry): void {
    this.cache.delete(hash);
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(hash, entry);
  }

  private recordUse(id: number, now: number): void {
    if (now - (this.lastUseRecorded.get(id) ?? 0) < LAST_USED_INTERVAL_MS) return;
    this.lastUseRecorded.set(id, now);
    this.store.recordUse(id, new Date(now)).catch((error: unknown) => {
      this.logger.warn(`could not record the use of API key ${id}: ${error instanceof Error ? error.message : error}`);
    });
  }
}

/** What of a key's row decides how it authenticates: a change to any of it makes an instance ask again. */
function keyState({ keyHash, scopes, revokedAt, expiresAt }: KeyToCheck): string {
  return `${keyHash} ${scopes} ${revokedAt?.getTime() ?? '-'} ${expiresAt?.getTime() ?? '-'}`;
}
