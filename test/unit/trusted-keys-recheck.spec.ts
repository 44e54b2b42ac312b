import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { ApiKeyService } from '../../src/auth/api-key.service.js';
import { RECHECK_MS, TrustedKeysRecheck } from '../../src/auth/trusted-keys-recheck.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the recheck of the trusted keys', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('reads them again every period, and not once it is stopped', async () => {
    let rechecks = 0;
    const recheck = new TrustedKeysRecheck({ recheck: async () => void rechecks++ } as unknown as ApiKeyService);
    recheck.onApplicationBootstrap();
    await wait(3 * RECHECK_MS + 100);
    recheck.onModuleDestroy();
    const stoppedAt = rechecks;
    expect(stoppedAt).toBeGreaterThanOrEqual(2);
    expect(stoppedAt).toBeLessThanOrEqual(4);
    await wait(2 * RECHECK_MS);
    expect(rechecks).toBe(stoppedAt);
  });

  it('says once that the database cannot be read, keeps asking at its pace, and says once that it can again', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    let rechecks = 0;
    let refusing = true;
    const recheck = new TrustedKeysRecheck({
      recheck: async () => {
        rechecks++;
        if (refusing) throw new Error('connect ECONNREFUSED 127.0.0.1:3306');
      },
    } as unknown as ApiKeyService);
    recheck.onApplicationBootstrap();
    await wait(4 * RECHECK_MS + 100);
    expect(rechecks).toBeLessThanOrEqual(5);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/cannot read the API keys in use \(connect ECONNREFUSED/);
    refusing = false;
    await wait(2 * RECHECK_MS + 100);
    recheck.onModuleDestroy();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledTimes(1);
  });
});
