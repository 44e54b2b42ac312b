import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../config/clock.js';
import { ApiKeyIssuer } from './api-key-issuer.js';
import { ApiKeysRepository } from './api-keys.repository.js';

export const QUICK_START_KEY_NAME = 'quick-start';

/**
 * So that the quick start works with nothing configured: outside production, a service that has no
 * key at all (none in API_KEYS, none stored and active) makes one once its port is bound, and shows
 * it, this once, in a command that works as it is, before the "Listening" line.
 */
@Injectable()
export class QuickStartKey {
  constructor(
    private readonly config: AppConfig,
    private readonly keys: ApiKeysRepository,
    private readonly issuer: ApiKeyIssuer,
    private readonly clock: Clock,
  ) {}

  /** Makes and shows the key if one is needed; `apiBaseUrl` is where the service is reached (ending in /v1). */
  async offer(apiBaseUrl: string): Promise<void> {
    if (this.config.production || this.config.apiKeys.length > 0 || (await this.keys.hasActiveKey(new Date(this.clock.now())))) return;
    const { key } = await this.issuer.create(QUICK_START_KEY_NAME);
    // Written straight to the terminal, not to the logs: it is the one time the key is shown.
    process.stdout.write(
      [
        '',
        `No API key existed, so one was made and stored as "${QUICK_START_KEY_NAME}". It is shown only this once; try it:`,
        '',
        `    curl -H 'Authorization: Bearer ${key}' ${apiBaseUrl}/pets`,
        '',
        'Manage keys with: npm run apikey -- create NAME | list | revoke ID',
        '',
        '',
      ].join('\n'),
    );
  }
}
