import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import { isName } from '../validation/is-name.validator.js';
import { generateApiKey } from './api-key-secret.js';
import { ApiKey } from './api-key.entity.js';

export const API_KEY_NAME_MAX = 100;

export class InvalidApiKeyNameError extends Error {
  constructor() {
    super(`an API key name must be 1 to ${API_KEY_NAME_MAX} characters, not only white space`);
  }
}

/** The stored API keys. Used by the service and by the command-line tool (src/cli/apikey.ts). */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>) {}

  /** Makes a key; the returned `key` is the only copy of the secret there will ever be. */
  async create(name: string): Promise<{ apiKey: ApiKey; key: string }> {
    if (!isName(name, 1, API_KEY_NAME_MAX)) throw new InvalidApiKeyNameError();
    const secret = generateApiKey();
    const apiKey = await this.keys.save(
      this.keys.create({
        name,
        prefix: secret.prefix,
        keyHash: secret.hash,
        createdAt: new Date(),
        lastUsedAt: null,
        revokedAt: null,
      }),
    );
    return { apiKey, key: secret.key };
  }

  list(): Promise<ApiKey[]> {
    return this.keys.find({ order: { id: 'ASC' } });
  }

  /** Revokes the key with this id; undefined when there is none. Revoking twice changes nothing. */
  async revoke(id: number): Promise<ApiKey | undefined> {
    const apiKey = await this.keys.findOneBy({ id });
    if (!apiKey) return undefined;
    if (!apiKey.revokedAt) {
      apiKey.revokedAt = new Date();
      await this.keys.update({ id }, { revokedAt: apiKey.revokedAt });
    }
    return apiKey;
  }

  /** The key with this hash, revoked or not, reading only what authentication needs. */
  findByHash(keyHash: string): Promise<Pick<ApiKey, 'id' | 'name' | 'keyHash' | 'revokedAt'> | null> {
    return this.keys.findOne({ select: { id: true, name: true, keyHash: true, revokedAt: true }, where: { keyHash } });
  }

  async hasActiveKey(): Promise<boolean> {
    return (await this.keys.countBy({ revokedAt: IsNull() })) > 0;
  }

  async recordUse(id: number, at: Date): Promise<void> {
    await this.keys.update({ id }, { lastUsedAt: at });
  }
}
