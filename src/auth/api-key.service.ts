import { createHash, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { ApiKeyInvalidException, ApiKeyMissingException } from './api-key.exceptions.js';
import type { ApiKeyPrincipal } from './api-key.principal.js';
import { readBearerToken } from './bearer-token.js';

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

interface KnownKey {
  readonly hash: Buffer;
  readonly principal: ApiKeyPrincipal;
}

/** Decides whether a request's bearer credential is a valid API key. */
@Injectable()
export class ApiKeyService {
  private readonly bootstrapKeys: readonly KnownKey[];

  constructor(config: AppConfig) {
    this.bootstrapKeys = config.apiKeys.map((key) => {
      const hash = hashApiKey(key);
      return { hash, principal: { keyId: `env-${hash.toString('hex', 0, 6)}`, name: 'API_KEYS' } };
    });
  }

  /** The principal for an Authorization header; throws the 401 the client should see otherwise. */
  async authenticate(authorization: string | undefined): Promise<ApiKeyPrincipal> {
    const token = readBearerToken(authorization);
    if (token === undefined) throw new ApiKeyMissingException();
    const principal = this.findBootstrapKey(hashApiKey(token));
    if (!principal) throw new ApiKeyInvalidException();
    return principal;
  }

  /** Compares against every bootstrap key in constant time, so timing reveals nothing of any key. */
  private findBootstrapKey(hash: Buffer): ApiKeyPrincipal | undefined {
    let found: ApiKeyPrincipal | undefined;
    for (const key of this.bootstrapKeys) {
      if (timingSafeEqual(key.hash, hash)) found = key.principal;
    }
    return found;
  }
}
