import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlDialect } from '../database/sql-dialect.js';
import { isName } from '../validation/is-name.validator.js';
import { generateApiKey } from './api-key-secret.js';
import type { ApiKey } from './api-key.entity.js';
import { formatScopes, type Scope, SCOPES } from './scopes.js';

export const API_KEY_NAME_MAX = 100;

export class InvalidApiKeyNameError extends Error {
  constructor() {
    super(`an API key name must be 1 to ${API_KEY_NAME_MAX} characters, not only white space`);
  }
}

const COLUMNS =
  'id, name, prefix, key_hash AS keyHash, scopes, created_at AS createdAt, last_used_at AS lastUsedAt, revoked_at AS revokedAt';
const ALL = `SELECT ${COLUMNS} FROM api_keys ORDER BY id`;
const BY_ID = `SELECT ${COLUMNS} FROM api_keys WHERE id = ?`;
const BY_HASH = 'SELECT id, name, key_hash AS keyHash, scopes, revoked_at AS revokedAt FROM api_keys WHERE key_hash = ?';
const INSERT = 'INSERT INTO api_keys (name, prefix, key_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?)';
const REVOKE = 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL';
const RECORD_USE = 'UPDATE api_keys SET last_used_at = ? WHERE id = ?';
const ANY_ACTIVE = 'SELECT 1 AS found FROM api_keys WHERE revoked_at IS NULL LIMIT 1';

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

  /** Makes a key; the returned `key` is the only copy of the secret there will ever be. */
  async create(name: string, scopes: Iterable<Scope> = SCOPES): Promise<{ apiKey: ApiKey; key: string }> {
    if (!isName(name, 1, API_KEY_NAME_MAX)) throw new InvalidApiKeyNameError();
    const secret = generateApiKey();
    const createdAt = new Date();
    const stored = formatScopes(scopes);
    const parameters = [name, secret.prefix, secret.hash, stored, this.dialect.datetime(createdAt)];
    const id = await this.dialect.insert(this.dataSource.manager, INSERT, parameters);
    const apiKey = { id, name, prefix: secret.prefix, keyHash: secret.hash, scopes: stored, createdAt, lastUsedAt: null, revokedAt: null };
    return { apiKey, key: secret.key };
  }

  async list(): Promise<ApiKey[]> {
    return (await this.dataSource.query(ALL)).map(this.toApiKey);
  }

  /** Revokes the key with this id; undefined when there is none. Revoking twice changes nothing. */
  async revoke(id: number): Promise<ApiKey | undefined> {
    const revokedAt = new Date();
    await this.dialect.changedRows(this.dataSource.manager, REVOKE, [this.dialect.datetime(revokedAt), id]);
    const [row] = await this.dataSource.query(BY_ID, [id]);
    return row && this.toApiKey(row);
  }

  /** The key with this hash, revoked or not, reading only what authentication needs. */
  async findByHash(keyHash: string): Promise<Pick<ApiKey, 'id' | 'name' | 'keyHash' | 'scopes' | 'revokedAt'> | undefined> {
    const [row] = await this.dataSource.query(BY_HASH, [keyHash]);
    return (
      row && {
        id: Number(row.id),
        name: row.name,
        keyHash: row.keyHash,
        scopes: row.scopes,
        revokedAt: this.readOptionalDatetime(row.revokedAt),
      }
    );
  }

  async hasActiveKey(): Promise<boolean> {
    return (await this.dataSource.query(ANY_ACTIVE)).length > 0;
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
  });

  private readOptionalDatetime(value: unknown): Date | null {
    return value === null || value === undefined ? null : this.dialect.readDatetime(value);
  }
}
