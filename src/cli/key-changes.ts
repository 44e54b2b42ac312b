import { KEY_CHANGES_CHANNEL } from '../auth/api-key.service.js';
import type { AppConfig } from '../config/app-config.js';
import { SharedRedis } from '../redis/shared-redis.js';

/**
 * With REDIS_URL, tells every instance at once that these keys changed (revoked, rolled, their
 * scopes set). Every instance applies a change within a second either way: each reads again, twice
 * a second, the keys it trusts (TrustedKeysRecheck); `tool` names the tool in the warning that Redis
 * could not be reached.
 */
export async function announceKeyChanges(tool: string, ids: readonly number[], config: AppConfig): Promise<void> {
  if (!config.redis || ids.length === 0) return;
  const redis = new SharedRedis(config);
  try {
    const ready = await redis.whenReady(2_000);
    const told = ready && (await Promise.all(ids.map((id) => redis.publish(KEY_CHANGES_CHANNEL, String(id))))).every(Boolean);
    if (!told) process.stderr.write(`${tool}: Redis could not be reached; instances read the change from the database within 1 second\n`);
  } finally {
    await redis.onApplicationShutdown();
  }
}
