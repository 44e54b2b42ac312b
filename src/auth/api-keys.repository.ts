import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { SqlDialect } from '../database/sql-dialect.js';
import type { ApiKey } from './api-key.entity.js';

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
 * The api_keys table, one written-out statement per question, like every repository. The rules of
 * making and changing keys are ApiKeyIssuer's; authentication (ApiKeyService) reads keys here.
 */
@Injectable()
export class ApiKeysRepository {
  private readonly dialect: SqlDialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = new SqlDialect(dataSource);
  }

  /** Runs `work` in one transaction, handing it the transaction's manager for the statements below. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The database's clock: what a new key's times are counted from, whatever the clock of the process. */
  now(manager: EntityManager = this.dataSource.manager): Promise<Date> {
    return this.dialect.now(manager);
  }

  /** Holds the key's row until `manager`'s transaction ends (see LOCK). */
  async lock(id: number, manager: EntityManager): Promise<void> {
    await manager.query(LOCK, [id]);
  }

  async find(id: number, manager: EntityManager = this.dataSource.manager): Promise<ApiKey | undefined> {
    const [row] = await manager.query(BY_ID, [id]);
    return row && this.toApiKey(row);
  }

  /** The id of the key rolled from this one, if it was rolled. */
  async successorOf(id: number, manager: EntityManager = this.dataSource.manager): Promise<number | undefined> {
    const [successor] = await manager.query(SUCCESSOR, [id]);
    return successor ? Number(successor.id) : undefined;
  }

  /** Stores a new key, as made, inside `manager`'s transaction. */
  async insert(key: Omit<ApiKey, 'id' | 'lastUsedAt' | 'revokedAt'>, manager: EntityManager): Promise<ApiKey> {
    const { name, prefix, keyHash, scopes, createdAt, expiresAt, rolledFromId } = key;
    const id = await this.dialect.insert(manager, INSERT, [
      name,
      prefix,
      keyHash,
      scopes,
      this.dialect.datetime(createdAt),
      expiresAt && this.dialect.datetime(expiresAt),
      rolledFromId,
    ]);
    return { ...key, id, lastUsedAt: null, revokedAt: null };
  }

  /** Brings the key's expiry forward to `at`, never back. */
  async expireBy(id: number, at: Date, manager: EntityManager): Promise<void> {
    const end = this.dialect.datetime(at);
    await manager.query(EXPIRE_BY, [end, id, end]);
  }

  async list(): Promise<ApiKey[]> {
    return (await this.dataSource.query(ALL)).map(this.toApiKey);
  }

  /** Revokes the key with this id as of `at`; undefined when there is none. A revoked key keeps its time. */
  async revoke(id: number, at: Date): Promise<ApiKey | undefined> {
    await this.dialect.changedRows(this.dataSource.manager, REVOKE, [this.dialect.datetime(at), id]);
    return this.find(id);
  }

  /** Stores these scopes (space-separated, as formatScopes writes them) as the key's; undefined when there is no key. */
  async setScopes(id: number, scopes: string): Promise<ApiKey | undefined> {
    await this.dataSource.query(SET_SCOPES, [scopes, id]);
    return this.find(id);
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
