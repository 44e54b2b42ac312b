/**
 * Makes, lists and revokes API keys, against whichever database DATABASE_URL names — with or
 * without the service running. `npm run apikey -- create NAME | list | revoke ID`.
 * Exit codes: 0 done, 1 failed (database, unknown id), 2 used wrongly.
 */
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKey } from '../auth/api-key.entity.js';
import { REVOCATIONS_CHANNEL } from '../auth/api-key.service.js';
import { ApiKeyStore, InvalidApiKeyNameError } from '../auth/api-key.store.js';
import { type AppConfig, ConfigError, loadAppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';
import { SharedRedis } from '../redis/shared-redis.js';

const USAGE = 'usage: npm run apikey -- create NAME | list | revoke ID';

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

type Command = { run: 'create'; name: string } | { run: 'list' } | { run: 'revoke'; id: number };

function parseArguments(args: readonly string[]): Command {
  const [command, ...rest] = args;
  if (command === 'create' && rest.length === 1) return { run: 'create', name: rest[0] };
  if (command === 'create') throw new CliError('create needs exactly one NAME (quote a name with spaces)', 2);
  if (command === 'list' && rest.length === 0) return { run: 'list' };
  if (command === 'revoke' && rest.length === 1) {
    if (!/^[1-9][0-9]{0,15}$/.test(rest[0]) || !Number.isSafeInteger(Number(rest[0]))) {
      throw new CliError(`revoke needs the numeric ID that list shows (got "${rest[0]}")`, 2);
    }
    return { run: 'revoke', id: Number(rest[0]) };
  }
  if (command === 'revoke') throw new CliError('revoke needs exactly one ID', 2);
  throw new CliError(USAGE, 2);
}

async function openStore(config: AppConfig): Promise<{ store: ApiKeyStore; close: () => Promise<void> }> {
  const dataSource = new DataSource({ ...buildDataSourceOptions(config.database), migrationsRun: config.migrationsRun });
  try {
    await dataSource.initialize();
  } catch (error) {
    throw new CliError(`cannot use the database: ${error instanceof Error ? error.message : error}`, 1);
  }
  return { store: new ApiKeyStore(dataSource.getRepository(ApiKey)), close: () => dataSource.destroy() };
}

async function execute(command: Command, store: ApiKeyStore, config: AppConfig): Promise<void> {
  switch (command.run) {
    case 'create': {
      const { apiKey, key } = await store.create(command.name);
      process.stderr.write(`Created API key ${apiKey.id} "${apiKey.name}". This is the only time it is shown:\n`);
      process.stdout.write(`${key}\n`);
      return;
    }
    case 'list':
      process.stdout.write(formatTable(await store.list()));
      return;
    case 'revoke': {
      const apiKey = await store.revoke(command.id);
      if (!apiKey) throw new CliError(`no API key has ID ${command.id}`, 1);
      const within = (await announceRevocation(apiKey.id, config)) ? '1 second' : '30 seconds';
      process.stdout.write(
        `Revoked API key ${apiKey.id} "${apiKey.name}" (${apiKey.prefix}…) at ${formatDate(apiKey.revokedAt)}; ` +
          `every instance refuses it within ${within}.\n`,
      );
      return;
    }
  }
}

/** With REDIS_URL, tells every instance at once; false when there is no Redis to tell, or it did not answer. */
async function announceRevocation(id: number, config: AppConfig): Promise<boolean> {
  if (!config.redis) return false;
  const redis = new SharedRedis(config);
  try {
    const told = (await redis.whenReady(2_000)) && (await redis.publish(REVOCATIONS_CHANNEL, String(id)));
    if (!told) process.stderr.write('apikey: Redis could not be reached; instances notice the revocation within their key cache time\n');
    return told;
  } finally {
    await redis.onApplicationShutdown();
  }
}

function formatTable(keys: readonly ApiKey[]): string {
  const rows = [
    ['ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'REVOKED'],
    ...keys.map((key) => [
      String(key.id),
      key.name,
      `${key.prefix}…`,
      formatDate(key.createdAt),
      formatDate(key.lastUsedAt, 'never'),
      formatDate(key.revokedAt, '-'),
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => [...row[column]].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n') + '\n';
}

function formatDate(date: Date | null, absent = ''): string {
  return date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : absent;
}

async function main(args: readonly string[]): Promise<number> {
  try {
    const command = parseArguments(args);
    const config = loadAppConfig(process.env);
    const { store, close } = await openStore(config);
    try {
      await execute(command, store, config);
    } finally {
      await close();
    }
    return 0;
  } catch (error) {
    const [message, exitCode] =
      error instanceof CliError
        ? [error.message, error.exitCode]
        : error instanceof ConfigError || error instanceof InvalidApiKeyNameError
          ? [error.message, 2]
          : [`failed: ${error instanceof Error ? error.message : error}`, 1];
    process.stderr.write(`apikey: ${message}\n`);
    return exitCode;
  }
}

// The tool says what matters itself; Nest's console logger (used by SharedRedis) would only add noise.
Logger.overrideLogger(false);
process.exitCode = await main(process.argv.slice(2));
