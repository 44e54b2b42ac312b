import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository.js';

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Deletes expired Idempotency-Key records at start and every ten minutes. A timer is all this
 * needs; expired records are ignored when found anyway, so a missed purge costs only space.
 */
@Injectable()
export class IdempotencyPurger implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IdempotencyPurger');
  private timer?: NodeJS.Timeout;

  constructor(private readonly store: IdempotencyRepository) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.purge();
    this.timer = setInterval(() => void this.purge(), PURGE_INTERVAL_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async purge(): Promise<void> {
    try {
      const purged = await this.store.purgeExpired();
      if (purged > 0) this.logger.log(`purged ${purged} expired Idempotency-Key records`);
    } catch (error) {
      this.logger.warn(`could not purge Idempotency-Key records: ${error instanceof Error ? error.message : error}`);
    }
  }
}
