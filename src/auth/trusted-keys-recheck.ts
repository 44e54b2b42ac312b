import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ApiKeyService } from './api-key.service.js';

/**
 * How often an instance reads again the keys it trusts: a changed key is refused within this long
 * and the time of the read (the promise is 1 s), for one indexed statement per period per instance,
 * whatever the traffic.
 */
export const RECHECK_MS = 500;

/**
 * Runs ApiKeyService.recheck every RECHECK_MS, from the start to the shutdown: the floor under a
 * key's revocation that needs nothing installed (Redis announces it faster where there is one).
 * While the database cannot be read it says so once, and once when it can again; meanwhile each
 * instance trusts a key for no longer than API_KEY_CACHE_MS, as always.
 */
@Injectable()
export class TrustedKeysRecheck implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('TrustedKeysRecheck');
  private timer?: NodeJS.Timeout;
  private failing = false;
  private stopped = false;

  constructor(private readonly keys: ApiKeyService) {}

  onApplicationBootstrap(): void {
    this.schedule();
  }

  /** Before the database's pool closes: a stopping service reads nothing more. */
  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    // Unref'd: the server keeps the process alive, not this.
    if (!this.stopped) this.timer = setTimeout(() => void this.run(), RECHECK_MS).unref();
  }

  private async run(): Promise<void> {
    try {
      await this.keys.recheck();
      if (this.failing) this.logger.log('API keys are read again: a changed key is refused within 1 s again');
      this.failing = false;
    } catch (error) {
      if (!this.failing && !this.stopped) {
        this.logger.warn(
          `cannot read the API keys in use (${error instanceof Error ? error.message : error}): until the database answers, ` +
            'a key changed meanwhile is refused within API_KEY_CACHE_MS (or at once with Redis)',
        );
      }
      this.failing = true;
    }
    this.schedule();
  }
}
