import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';

/** The MySQL server the e2e suite makes its own databases on. */
export function mysqlServerUrl(): string {
  return (process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');
}

/** Set here, once the server has been asked; read by the test files. */
export const MYSQL_PROBE_VARIABLE = 'PETSTORE_E2E_MYSQL';

/** The Redis server the tests of several instances use (each run with its own key prefix). */
export function redisServerUrl(): string {
  return process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
}

export const REDIS_PROBE_VARIABLE = 'PETSTORE_E2E_REDIS';

/** Removes every key under `prefix` from the test Redis: a file's clean-up of what it counted there. */
export async function removeRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(redisServerUrl());
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/** The browser the Swagger UI tests drive (Debian's chromium: no browser download works on our machines). */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

export const CHROMIUM_PROBE_VARIABLE = 'PETSTORE_E2E_CHROMIUM';

/** Where the ES-module copies below are written; jest.config.js maps the packages to them. */
/**
 * Asks the MySQL server once whether the MySQL half of the e2e suite can run. Without a server the
 * suite says loudly that half of it did not run; under CI that is a failure.
 */
export default async function globalSetup(): Promise<void> {
  // E2E_LOG_FILE (support/e2e-log.ts): Jest loads this file without mapping relative .js imports.
  await rm(resolve('.test-logs/e2e.log'), { force: true });
  await probeRedis();
  probeChromium();
  if (process.env.TEST_DATABASE === 'container') await startDatabaseContainer();
  const url = mysqlServerUrl();
  try {
    const connection = await mysql.createConnection({ uri: url, connectTimeout: 3_000 });
    await connection.query('SELECT 1');
    await connection.end();
    process.env[MYSQL_PROBE_VARIABLE] = 'available';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const banner = [
      '',
      '#'.repeat(78),
      `#  MySQL e2e tests DID NOT RUN: no MySQL server answers at ${redact(url)}`,
      `#  (${reason}).`,
      '#  Set TEST_DATABASE_URL to a server this user may create databases on.',
      '#'.repeat(78),
      '',
    ].join('\n');
    if (process.env.CI === 'true') throw new Error(`${banner}\nCI=true: the MySQL half of the suite is required.`, { cause: error });
    process.stderr.write(banner);
    process.env[MYSQL_PROBE_VARIABLE] = 'unavailable';
  }
}

/** The started container, for the global teardown (Jest runs both in its main process). */
export const DATABASE_CONTAINER = Symbol.for('petstore.e2e.databaseContainer');

/**
 * TEST_DATABASE=container: the MySQL half runs on a server of its own in a container, started here
 * with Testcontainers (MYSQL_IMAGE, mysql:8.4 by default) and removed by the global teardown; the
 * test files find it through TEST_DATABASE_URL, as they would any server. Where the Ryuk image
 * cannot be had, set TESTCONTAINERS_RYUK_DISABLED=true (the teardown removes the container itself).
 */
async function startDatabaseContainer(): Promise<void> {
  // Reached through its port on 127.0.0.1, never a bridge address (Testcontainers picks the bridge's
  // gateway when it finds itself inside a container), unless the engine is remote (DOCKER_HOST=tcp://…).
  if (!process.env.DOCKER_HOST?.startsWith('tcp:')) process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  const { MySqlContainer } = await import('@testcontainers/mysql');
  const image = process.env.MYSQL_IMAGE ?? 'mysql:8.4';
  try {
    const container = await new MySqlContainer(image).withRootPassword(randomBytes(12).toString('hex')).start();
    (globalThis as Record<symbol, unknown>)[DATABASE_CONTAINER] = container;
    process.env.TEST_DATABASE_URL = container.getConnectionUri(true).replace(/\/[^/]*$/, '');
    process.stderr.write(`e2e: MySQL half on ${image} in container ${container.getId().slice(0, 12)}, port ${container.getPort()}\n`);
  } catch (error) {
    throw new Error(`TEST_DATABASE=container: could not start ${image} (${error instanceof Error ? error.message : error})`, {
      cause: error,
    });
  }
}

/** Whether the Redis tests can run: without a server they are passed over loudly, and under CI that is a failure. */
async function probeRedis(): Promise<void> {
  const redis = new Redis(redisServerUrl(), {
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    lazyConnect: true,
  });
  try {
    await redis.connect();
    await redis.ping();
    process.env[REDIS_PROBE_VARIABLE] = 'available';
  } catch (error) {
    const banner = `\n#  Redis e2e tests DID NOT RUN: no Redis answers at ${redact(redisServerUrl())} (${error instanceof Error ? error.message : error}).\n`;
    if (process.env.CI === 'true') throw new Error(`${banner}CI=true: the Redis tests are required.`, { cause: error });
    process.stderr.write(banner);
    process.env[REDIS_PROBE_VARIABLE] = 'unavailable';
  } finally {
    redis.disconnect();
  }
}

/** Whether the browser tests can run: without Chromium they are passed over loudly, and under CI that is a failure. */
function probeChromium(): void {
  if (existsSync(chromiumPath())) {
    process.env[CHROMIUM_PROBE_VARIABLE] = 'available';
    return;
  }
  const banner = `\n#  Browser e2e tests (Swagger UI) DID NOT RUN: no Chromium at ${chromiumPath()}; \`bash scripts/chromium.sh\` installs Debian's.\n`;
  if (process.env.CI === 'true') throw new Error(`${banner}CI=true: the browser tests are required.`);
  process.stderr.write(banner);
  process.env[CHROMIUM_PROBE_VARIABLE] = 'unavailable';
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
