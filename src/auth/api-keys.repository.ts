import { Injectable } from '@nestjs/common';
import { datetime, id, integer, optionalDatetime, optionalId, text } from '../database/columns.js';
import { type Row, Sql, type SqlRunner } from '../database/sql.js';
import { listOf } from '../database/sql-literal.js';
import type { ApiKey } from './api-key.entity.js';

const COLUMNS =
  'id, name, prefix, key_hash AS keyHash, scopes, created_at AS createdAt, last_used_at AS lastUsedAt, ' +
  'revoked_at AS revokedAt, expires_at AS expiresAt, rolled_from_id AS rolledFromId, environment';
const ALL = `SELECT ${COLUMNS} FROM api_keys ORDER BY id`;
const BY_ID = `SELECT ${COLUMNS} FROM api_keys WHERE id = ?`;
const TO_CHECK =
  'SELECT id, name, key_hash AS keyHash, scopes, revoked_at AS revokedAt, expires_at AS expiresAt, environment FROM api_keys';
const BY_HASH = `${TO_CHECK} WHERE key_hash = ?`;
const BY_IDS = `${TO_CHECK} WHERE id IN (?)`;
/** Keys read back by id in one statement: far below either database's limit of parameters. */
const IDS_PER_READ = 500;
const SUCCESSOR = 'SELECT id FROM api_keys WHERE rolled_from_id = ?';
/**
 * Holds the key's row until the transaction ends: a row lock on MySQL; on SQLite, which has no row
 * locks, the database's write lock. A second roll of the same key waits here, then sees the first
 * one's successor.
 */
const LOCK = 'UPDATE api_keys SET id = id WHERE id = ?';
const INSERT =
  'INSERT INTO api_keys (name, prefix, key_hash, scopes, created_at, expires_at, rolled_from_id, environment) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
const REVOKE = 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL';
/** Every key of a sandbox at once, when the sandbox is deleted; a revoked one keeps its time. */
const REVOKE_ENVIRONMENT = 'UPDATE api_keys SET revoked_at = ? WHERE environment = ? AND revoked_at IS NULL';
const IDS_OF_ENVIRONMENT = 'SELECT id FROM api_keys WHERE environment = ?';
/** Brings an expiry forward, never back: a key that expires sooner keeps its time. */
const EXPIRE_BY = 'UPDATE api_keys SET expires_at = ? WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)';
const SET_SCOPES = 'UPDATE api_keys SET scopes = ? WHERE id = ?';
const RECORD_USE = 'UPDATE api_keys SET last_used_at = ? WHERE id = ?';
const ANY_ACTIVE = 'SELECT 1 AS found FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) LIMIT 1';

const readApiKey = (row: Row): ApiKey => ({
  id: id(row.id),
  name: text(row.name),
  prefix: text(row.prefix),
  keyHash: text(row.keyHash),
  scopes: text(row.scopes),
  createdAt: datetime(row.createdAt),
  lastUsedAt: optionalDatetime(row.lastUsedAt),
  revokedAt: optionalDatetime(row.revokedAt),
  expiresAt: optionalDatetime(row.expiresAt),
  rolledFromId: optionalId(row.rolledFromId),
  environment: integer(row.environment),
});

const readId = (row: Row): number => id(row.id);

/** What authentication reads of a key. */
export type KeyToCheck = Pick<ApiKey, 'id' | 'name' | 'keyHash' | 'scopes' | 'revokedAt' | 'expiresAt' | 'environment'>;

const readKeyToCheck = (row: Row): KeyToCheck => ({
  id: id(row.id),
  name: text(row.name),
  keyHash: text(row.keyHash),
  scopes: text(row.scopes),
  revokedAt: optionalDatetime(row.revokedAt),
  expiresAt: optionalDatetime(row.expiresAt),
  environment: integer(row.environment),
});

/**
 * The api_keys table, one written-out statement per question, like every repository. The rules of
 * making and changing keys are ApiKeyIssuer's; authentication (ApiKeyService) reads keys here.
 */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly sql: Sql) {}

  /** Runs `work` in one transaction, handing it the transaction's runner for the statements below. */
  transaction<T>(work: (transaction: SqlRunner) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  /** The database's clock: what a new key's times are counted from, whatever the clock of the process. */
  now(transaction: SqlRunner = this.sql): Promise<Date> {
    return this.sql.now(transaction);
  }

  /** Holds the key's row until `transaction` ends (see LOCK). */
  async lock(id: number, transaction: SqlRunner): Promise<void> {
    await transaction.run(LOCK, [id]);
  }

  async find(id: number, transaction: SqlRunner = this.sql): Promise<ApiKey | undefined> {
    const [key] = await transaction.rows(BY_ID, [id], readApiKey);
    return key;
  }

  /** The id of the key rolled from this one, if it was rolled. */
  async successorOf(id: number, transaction: SqlRunner = this.sql): Promise<number | undefined> {
    const [successor] = await transaction.rows(SUCCESSOR, [id], readId);
    return successor;
  }

  /** Stores a new key, as made, inside `transaction`. */
  async insert(key: Omit<ApiKey, 'id' | 'lastUsedAt' | 'revokedAt'>, transaction: SqlRunner): Promise<ApiKey> {
    const { name, prefix, keyHash, scopes, createdAt, expiresAt, rolledFromId, environment } = key;
    const { insertId } = await transaction.run(INSERT, [name, prefix, keyHash, scopes, createdAt, expiresAt, rolledFromId, environment]);
    return { ...key, id: insertId, lastUsedAt: null, revokedAt: null };
  }

  /** Brings the key's expiry forward to `at`, never back. */
  async expireBy(id: number, at: Date, transaction: SqlRunner): Promise<void> {
    await transaction.run(EXPIRE_BY, [at, id, at]);
  }

  list(): Promise<ApiKey[]> {
    return this.sql.rows(ALL, [], readApiKey);
  }

  /** Revokes the key with this id as of `at`; undefined when there is none. A revoked key keeps its time. */
  async revoke(id: number, at: Date): Promise<ApiKey | undefined> {
    await this.sql.run(REVOKE, [at, id]);
    return this.find(id);
  }

  /**
   * Revokes every key of the environment (a sandbox's) as of `at`, inside `transaction`; answers the
   * ids of its keys, for the instances to hear of at once (KEY_CHANGES_CHANNEL).
   */
  async revokeEnvironment(environment: number, at: Date, transaction: SqlRunner = this.sql): Promise<number[]> {
    await transaction.run(REVOKE_ENVIRONMENT, [at, environment]);
    return transaction.rows(IDS_OF_ENVIRONMENT, [environment], readId);
  }

  /** Stores these scopes (space-separated, as formatScopes writes them) as the key's; undefined when there is no key. */
  async setScopes(id: number, scopes: string): Promise<ApiKey | undefined> {
    await this.sql.run(SET_SCOPES, [scopes, id]);
    return this.find(id);
  }

  /** The key with this hash, revoked or not, reading only what authentication needs. */
  async findByHash(keyHash: string): Promise<KeyToCheck | undefined> {
    const [key] = await this.sql.rows(BY_HASH, [keyHash], readKeyToCheck);
    return key;
  }

  /** The keys with these ids that still exist, reading only what authentication needs. */
  async findToCheck(ids: readonly number[]): Promise<KeyToCheck[]> {
    const found: KeyToCheck[] = [];
    for (let at = 0; at < ids.length; at += IDS_PER_READ) {
      const some = ids.slice(at, at + IDS_PER_READ);
      found.push(...(await this.sql.rows(BY_IDS, [listOf(some)], readKeyToCheck)));
    }
    return found;
  }

  /** Whether some key works at `now`: neither revoked nor expired. */
  async hasActiveKey(now: Date): Promise<boolean> {
    return (await this.sql.rows(ANY_ACTIVE, [now], () => true)).length > 0;
  }

  async recordUse(id: number, at: Date): Promise<void> {
    await this.sql.run(RECORD_USE, [at, id]);
  }
}
