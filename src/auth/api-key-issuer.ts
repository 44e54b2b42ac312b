import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../database/constraint-violations.js';
import type { SqlRunner } from '../database/sql.js';
import { Environment } from '../environments/environment.js';
import { isName } from '../validation/name.js';
import { generateApiKey } from './api-key-secret.js';
import type { ApiKey } from './api-key.entity.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { formatScopes, readScopes, type Scope, SCOPES } from './scopes.js';

export const API_KEY_NAME_MAX = 100;

export class InvalidApiKeyNameError extends Error {
  constructor() {
    super(`an API key name must be 1 to ${API_KEY_NAME_MAX} characters, not only white space`);
  }
}

/** A key that cannot be rolled: revoked, or rolled already (its successor is the one to roll). */
export class KeyNotRollableError extends Error {}

/**
 * A time a key was asked to stop working at (its `expiry`, or the end of a roll's `overlap`) that is
 * past, or later than the database can hold. The message says what is wrong with it.
 */
export class KeyTimeRefusedError extends Error {
  constructor(
    readonly subject: 'expiry' | 'overlap',
    message: string,
  ) {
    super(message);
  }
}

/** The latest time both databases hold as a DATETIME (and JavaScript writes as four-digit-year RFC 3339). */
export const LATEST_KEY_TIME = new Date('9999-12-31T23:59:59.999Z');

/** When a key stops working: a duration counted from the database's clock as the key is stored, or a time. */
export type KeyExpiry = { readonly afterMs: number } | { readonly at: Date };

/** What a new key is made with, beyond its name. */
export interface NewKeyOptions {
  /** Every scope when not given. */
  readonly scopes?: Iterable<Scope>;
  /** Never, when not given. */
  readonly expiry?: KeyExpiry | null;
  /** Live when not given; a sandbox's key begins `psk_test_`. */
  readonly environment?: Environment;
}

/**
 * Makes, rolls, rescopes and revokes API keys, by the rules every maker of keys keeps: a name a
 * person can read, a secret made here and shown once, an expiry in the future that the database can
 * hold, one successor per key. The service's quick-start key and the key tool (src/cli/apikey.ts,
 * which runs without Nest) both go through it; ApiKeysRepository only runs the statements. Not to
 * be confused with ApiKeyService, which checks the key of every request.
 */
@Injectable()
export class ApiKeyIssuer {
  constructor(private readonly keys: ApiKeysRepository) {}

  /**
   * Makes a key; the returned `key` is the only copy of the secret there will ever be. Throws
   * KeyTimeRefusedError, storing nothing, for an expiry that is not in the future or not storable.
   * Inside `within`, a transaction of the caller's (a new sandbox's, which commits with its key), or one of its own.
   */
  create(name: string, options: NewKeyOptions = {}, within?: SqlRunner): Promise<{ apiKey: ApiKey; key: string }> {
    const issue = async (transaction: SqlRunner) => this.issue(transaction, await this.keys.now(transaction), name, options, null);
    return within ? issue(within) : this.keys.transaction(issue);
  }

  /**
   * Rolls a key: a new one with the same name and scopes (shown once, like any new key), linked to
   * the old one, which keeps working for `overlapMs` (or until its own expiry, if sooner), then
   * expires. One transaction, holding the old key's row: a roll happens whole or not at all, and of
   * two rolls of one key, the second finds the first one's successor and is refused (the unique
   * index on rolled_from_id says the same should anything get past the lock).
   */
  async roll(
    id: number,
    overlapMs: number,
    expiry: KeyExpiry | null,
  ): Promise<{ rolled: ApiKey; apiKey: ApiKey; key: string } | undefined> {
    try {
      return await this.keys.transaction(async (transaction) => {
        await this.keys.lock(id, transaction);
        const old = await this.keys.find(id, transaction);
        if (!old) return undefined;
        if (old.revokedAt) throw new KeyNotRollableError(`API key ${id} is revoked; a revoked key cannot be rolled`);
        await this.refuseIfRolled(id, transaction);
        const now = await this.keys.now(transaction);
        const overlapEnds = storableKeyTime(new Date(now.getTime() + overlapMs), 'overlap');
        const made = await this.issue(
          transaction,
          now,
          old.name,
          { scopes: readScopes(old.scopes), expiry, environment: Environment.of(old.environment) },
          id,
        );
        await this.keys.expireBy(id, overlapEnds, transaction);
        return { rolled: (await this.keys.find(id, transaction))!, ...made };
      });
    } catch (error) {
      if (isUniqueViolation(error)) await this.refuseIfRolled(id);
      throw error;
    }
  }

  list(): Promise<ApiKey[]> {
    return this.keys.list();
  }

  /** Revokes the key with this id now; undefined when there is none. Revoking twice changes nothing. */
  revoke(id: number): Promise<ApiKey | undefined> {
    return this.keys.revoke(id, new Date());
  }

  /**
   * Revokes every key of `environment` (a sandbox being deleted) now, inside `within` when given;
   * answers their ids. Each instance refuses them within a second, as any revoked key (TrustedKeysRecheck).
   */
  revokeEnvironment(environment: Environment, within?: SqlRunner): Promise<number[]> {
    return this.keys.revokeEnvironment(environment.id, new Date(), within);
  }

  /** Gives the key with this id exactly these scopes; undefined when there is none. */
  setScopes(id: number, scopes: Iterable<Scope>): Promise<ApiKey | undefined> {
    return this.keys.setScopes(id, formatScopes(scopes));
  }

  private async refuseIfRolled(id: number, transaction?: SqlRunner): Promise<void> {
    const successorId = await this.keys.successorOf(id, transaction);
    if (successorId !== undefined) throw new KeyNotRollableError(`API key ${id} was rolled already, to key ${successorId}; roll that one`);
  }

  /** Makes a key at `createdAt`, the database's now, and stores it. */
  private async issue(
    transaction: SqlRunner,
    createdAt: Date,
    name: string,
    { scopes = SCOPES, expiry = null, environment = Environment.LIVE }: NewKeyOptions,
    rolledFromId: number | null,
  ): Promise<{ apiKey: ApiKey; key: string }> {
    if (!isName(name, 1, API_KEY_NAME_MAX)) throw new InvalidApiKeyNameError();
    const expiresAt = expiry && expiryAfter(createdAt, expiry);
    const secret = generateApiKey(!environment.livemode);
    const apiKey = await this.keys.insert(
      {
        name,
        prefix: secret.prefix,
        keyHash: secret.hash,
        scopes: formatScopes(scopes),
        createdAt,
        expiresAt,
        rolledFromId,
        environment: environment.id,
      },
      transaction,
    );
    return { apiKey, key: secret.key };
  }
}

/** The time `expiry` names, counted from `now`: in the future, and storable. */
function expiryAfter(now: Date, expiry: KeyExpiry): Date {
  const at = storableKeyTime('at' in expiry ? expiry.at : new Date(now.getTime() + expiry.afterMs), 'expiry');
  if (at.getTime() <= now.getTime()) {
    throw new KeyTimeRefusedError('expiry', `is not in the future (the database's clock says ${now.toISOString()})`);
  }
  return at;
}

function storableKeyTime(time: Date, subject: KeyTimeRefusedError['subject']): Date {
  if (!(time.getTime() <= LATEST_KEY_TIME.getTime())) {
    throw new KeyTimeRefusedError(subject, `ends after ${LATEST_KEY_TIME.toISOString()}, the latest time the database holds`);
  }
  return time;
}
