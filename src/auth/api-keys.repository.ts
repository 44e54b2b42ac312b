import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { SqlDialect } from '../database/sql-dialect.js';
import { isUniqueViolation } from '../database/constraint-violations.js';
import { isName } from '../validation/is-name.validator.js';
import { generateApiKey } from './api-key-secret.js';
import type { ApiKey } from './api-key.entity.js';
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
  /** All four when not given. */
  readonly scopes?: Iterable<Scope>;
  /** Never, when not given. */
  readonly expiry?: KeyExpiry | null;
}

const COLUMNS =
  'id, name, prefix, key_hash AS keyHash, scopes, created_at AS createdAt, last_used_at AS lastUsedAt, ' +
  'revoked_at AS revokedAt, expires_at AS expiresAt, rolled_from_id AS rolledFromId';
const ALL = `SELECT ${COLUMNS} FROM api_keys ORDER BY id`;
const BY_ID = `SELECT ${COLUMNS} FROM api_keys WHERE id = ?`;
const BY_HASH =
  'SELECT id, name, key_hash AS keyHash, scopes, revoked_at AS revokedAt, expires_at AS expiresAt FROM api_keys WHERE key_hash = ?';
const SUCCESSOR = 'SELECT id FROM api_keys WHERE rolled_from_id = ?';
/**
 * Holds the key's row until the transaction ends: a row lock on MySQL; on SQLite, which has no row
 * locks, the database's write lock. A second roll of the same key waits here, then sees the first
 * one's successor.
 */
const LOCK = 'UPDATE api_keys SET id = id WHERE id = ?';
const INSERT = 'INSERT INTO api_keys (name, prefix, key_hash, scopes, created_at, expires_at, rolled_from_id) VALUES (?, ?, ?, ?, ?, ?, ?)';
const REVOKE = 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL';
/** Brings an expiry forward, never back: a key that expires sooner keeps its time. */
const EXPIRE_BY = 'UPDATE api_keys SET expires_at = ? WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)';
const SET_SCOPES = 'UPDATE api_keys SET scopes = ? WHERE id = ?';
const RECORD_USE = 'UPDATE api_keys SET last_used_at = ? WHERE id = ?';
const ANY_ACTIVE = 'SELECT 1 AS found FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) LIMIT 1';

/**
 * The api_keys table, one written-out statement per question, like every repository. Used by the
 * service and by the command-line tool (src/cli/apikey.ts).
 */
@Injectable()
export class ApiKeysRepository {
  private readonly dialect: SqlDialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = new SqlDialect(dataSource);
  }

  /**
   * Makes a key; the returned `key` is the only copy of the secret there will ever be. Throws
   * KeyTimeRefusedError, storing nothing, for an expiry that is not in the future or not storable.
   */
  create(name: string, options: NewKeyOptions = {}): Promise<{ apiKey: ApiKey; key: string }> {
    return this.dataSource.transaction(async (manager) => this.insert(manager, await this.dialect.now(manager), name, options, null));
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
      return await this.dataSource.transaction(async (manager) => {
        await manager.query(LOCK, [id]);
        const old = await this.find(manager, id);
        if (!old) return undefined;
        if (old.revokedAt) throw new KeyNotRollableError(`API key ${id} is revoked; a revoked key cannot be rolled`);
        await this.refuseIfRolled(manager, id);
        const now = await this.dialect.now(manager);
        const overlapEnds = storableKeyTime(new Date(now.getTime() + overlapMs), 'overlap');
        const made = await this.insert(manager, now, old.name, { scopes: readScopes(old.scopes), expiry }, id);
        const end = this.dialect.datetime(overlapEnds);
        await manager.query(EXPIRE_BY, [end, id, end]);
        return { rolled: (await this.find(manager, id))!, ...made };
      });
    } catch (error) {
      if (isUniqueViolation(error)) await this.refuseIfRolled(this.dataSource.manager, id);
      throw error;
    }
  }

  async list(): Promise<ApiKey[]> {
    return (await this.dataSource.query(ALL)).map(this.toApiKey);
  }

  /** Revokes the key with this id; undefined when there is none. Revoking twice changes nothing. */
  async revoke(id: number): Promise<ApiKey | undefined> {
    await this.dialect.changedRows(this.dataSource.manager, REVOKE, [this.dialect.datetime(new Date()), id]);
    return this.find(this.dataSource.manager, id);
  }

  /** Gives the key with this id exactly these scopes; undefined when there is none. */
  async setScopes(id: number, scopes: Iterable<Scope>): Promise<ApiKey | undefined> {
    await this.dataSource.query(SET_SCOPES, [formatScopes(scopes), id]);
    return this.find(this.dataSource.manager, id);
  }

  /** The key with this hash, revoked or not, reading only what authentication needs. */
  async findByHash(keyHash: string): Promise<Pick<ApiKey, 'id' | 'name' | 'keyHash' | 'scopes' | 'revokedAt' | 'expiresAt'> | undefined> {
    const [row] = await this.dataSource.query(BY_HASH, [keyHash]);
    return (
      row && {
        id: Number(row.id),
        name: row.name,
        keyHash: row.keyHash,
        scopes: row.scopes,
        revokedAt: this.readOptionalDatetime(row.revokedAt),
        expiresAt: this.readOptionalDatetime(row.expiresAt),
      }
    );
  }

  /** Whether some key works at `now`: neither revoked nor expired. */
  async hasActiveKey(now: Date): Promise<boolean> {
    return (await this.dataSource.query(ANY_ACTIVE, [this.dialect.datetime(now)])).length > 0;
  }

  async recordUse(id: number, at: Date): Promise<void> {
    await this.dataSource.query(RECORD_USE, [this.dialect.datetime(at), id]);
  }

  private async refuseIfRolled(manager: EntityManager, id: number): Promise<void> {
    const [successor] = await manager.query(SUCCESSOR, [id]);
    if (successor) throw new KeyNotRollableError(`API key ${id} was rolled already, to key ${successor.id}; roll that one`);
  }

  /** Stores a key made at `createdAt`, the database's now. */
  private async insert(
    manager: EntityManager,
    createdAt: Date,
    name: string,
    { scopes = SCOPES, expiry = null }: NewKeyOptions,
    rolledFromId: number | null,
  ): Promise<{ apiKey: ApiKey; key: string }> {
    if (!isName(name, 1, API_KEY_NAME_MAX)) throw new InvalidApiKeyNameError();
    const expiresAt = expiry && expiryAfter(createdAt, expiry);
    const secret = generateApiKey();
    const stored = formatScopes(scopes);
    const parameters = [
      name,
      secret.prefix,
      secret.hash,
      stored,
      this.dialect.datetime(createdAt),
      expiresAt && this.dialect.datetime(expiresAt),
      rolledFromId,
    ];
    const id = await this.dialect.insert(manager, INSERT, parameters);
    const apiKey = {
      id,
      name,
      prefix: secret.prefix,
      keyHash: secret.hash,
      scopes: stored,
      createdAt,
      lastUsedAt: null,
      revokedAt: null,
      expiresAt,
      rolledFromId,
    };
    return { apiKey, key: secret.key };
  }

  private async find(manager: EntityManager, id: number): Promise<ApiKey | undefined> {
    const [row] = await manager.query(BY_ID, [id]);
    return row && this.toApiKey(row);
  }

  private readonly toApiKey = (row: Record<string, unknown>): ApiKey => ({
    id: Number(row.id),
    name: row.name as string,
    prefix: row.prefix as string,
    keyHash: row.keyHash as string,
    scopes: row.scopes as string,
    createdAt: this.dialect.readDatetime(row.createdAt),
    lastUsedAt: this.readOptionalDatetime(row.lastUsedAt),
    revokedAt: this.readOptionalDatetime(row.revokedAt),
    expiresAt: this.readOptionalDatetime(row.expiresAt),
    rolledFromId: row.rolledFromId === null || row.rolledFromId === undefined ? null : Number(row.rolledFromId),
  });

  private readOptionalDatetime(value: unknown): Date | null {
    return value === null || value === undefined ? null : this.dialect.readDatetime(value);
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
