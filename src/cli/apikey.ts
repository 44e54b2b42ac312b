/**
 * Makes, lists and revokes API keys, against whichever database DATABASE_URL names — with or
 * without the service running. `npm run apikey -- --help` says how; `npm run apikey` runs the built
 * tool without rebuilding (it builds only when dist/ is missing), as the image does.
 * Exit codes: 0 done, 1 failed (database, no such key), 2 used wrongly (an unknown scope, an ambiguous prefix).
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ApiKey } from '../auth/api-key.entity.js';
import { REVOCATIONS_CHANNEL } from '../auth/api-key.service.js';
import { ApiKeysRepository, InvalidApiKeyNameError } from '../auth/api-keys.repository.js';
import { type AppConfig, ConfigError, loadAppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';
import { SharedRedis } from '../redis/shared-redis.js';
import { isScope, readScopes, type Scope, SCOPES } from '../auth/scopes.js';

const USAGE = 'usage: npm run apikey -- create NAME [--scopes LIST] | list | revoke ID|PREFIX | --help';

const HELP = `${USAGE}

Makes, lists and revokes the API keys of the Pet Store service, in the database DATABASE_URL names
(the SQLite file data/petstore.sqlite when it is unset), while the service runs or not.

  create NAME        Makes a key and prints it on stdout, the only time it is ever shown. NAME is a
                     label of 1 to 100 characters (quote one with spaces); a name other active keys
                     have is accepted with a warning.
    --scopes LIST    What the key may do, comma-separated: pets:read (list and get animals),
                     pets:write (add animals), store:read (list and get orders, the inventory),
                     store:write (place orders). A write scope does not include its read scope.
                     Without --scopes the key holds all four.
  list               Every key: id, name, prefix, scopes, created, last used and revoked; never a key.
  revoke ID|PREFIX   Revokes the key with this id, or the one key whose prefix (as list shows it,
                     psk_…) starts with PREFIX; a PREFIX more than one key has is refused. Every
                     instance refuses the key within 1 s with REDIS_URL set, else within its key
                     cache time (API_KEY_CACHE_MS, 30 s by default). Revoking twice is harmless.
  help, --help, -h   This text.

From a built checkout: node dist/src/cli/apikey.js COMMAND; in the image:
docker compose run --rm api node dist/src/cli/apikey.js COMMAND.
Exit codes: 0 done, 1 failed (database, no such key), 2 used wrongly (an unknown scope, an ambiguous prefix).
`;

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/** Which key a revoke names: its id, or the start of the prefix `list` shows (the "…" it ends with may be pasted along). */
type KeyReference = { id: number } | { prefix: string };

type Command =
  { run: 'help' } | { run: 'create'; name: string; scopes: readonly Scope[] } | { run: 'list' } | { run: 'revoke'; key: KeyReference };

function parseArguments(args: readonly string[]): Command {
  const [command, ...rest] = args;
  if (['help', '--help', '-h'].includes(command) && rest.length === 0) return { run: 'help' };
  if (command === 'create') {
    const { positionals, values } = parseOptions(rest, { scopes: { type: 'string' } });
    if (positionals.length !== 1) throw new CliError('create needs exactly one NAME (quote a name with spaces)', 2);
    return { run: 'create', name: positionals[0], scopes: values.scopes === undefined ? SCOPES : parseScopeList(values.scopes) };
  }
  if (command === 'list' && rest.length === 0) return { run: 'list' };
  if (command === 'revoke' && rest.length === 1) return { run: 'revoke', key: parseKeyReference(rest[0]) };
  if (command === 'revoke') throw new CliError('revoke needs exactly one ID or PREFIX', 2);
  throw new CliError(USAGE, 2);
}

/** node:util's parseArgs, its complaints (an unknown option, a missing value) as usage errors. */
function parseOptions<T extends ParseArgsOptionsConfig>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), 2);
  }
}

function parseScopeList(given: string): Scope[] {
  const scopes = given.split(',').map((scope) => scope.trim());
  const unknown = scopes.find((scope) => !isScope(scope));
  if (unknown !== undefined) {
    throw new CliError(`--scopes: "${unknown}" is no scope; the scopes are ${SCOPES.join(', ')} (comma-separated)`, 2);
  }
  return scopes as Scope[];
}

function parseKeyReference(given: string): KeyReference {
  if (/^[1-9][0-9]{0,15}$/.test(given) && Number.isSafeInteger(Number(given))) return { id: Number(given) };
  const prefix = given.replace(/…$/, '');
  if (/^psk_[A-Za-z0-9_-]+$/.test(prefix)) return { prefix };
  throw new CliError(`revoke needs the numeric ID or the psk_… PREFIX that list shows (got "${given}")`, 2);
}

async function openStore(config: AppConfig): Promise<{ store: ApiKeysRepository; close: () => Promise<void> }> {
  const dataSource = new DataSource({ ...buildDataSourceOptions(config.database), migrationsRun: config.migrationsRun });
  try {
    await dataSource.initialize();
  } catch (error) {
    throw new CliError(`cannot use the database: ${error instanceof Error ? error.message : error}`, 1);
  }
  return { store: new ApiKeysRepository(dataSource), close: () => dataSource.destroy() };
}

async function execute(command: Exclude<Command, { run: 'help' }>, store: ApiKeysRepository, config: AppConfig): Promise<void> {
  switch (command.run) {
    case 'create': {
      const namesakes = (await store.list()).filter((key) => key.name === command.name && !key.revokedAt);
      const { apiKey, key } = await store.create(command.name, command.scopes);
      if (namesakes.length > 0) {
        const ids = namesakes.map((namesake) => namesake.id).join(', ');
        process.stderr.write(
          `apikey: warning: active key ${ids} already has the name "${command.name}"; names are labels, ids tell keys apart\n`,
        );
      }
      process.stderr.write(
        `Created API key ${apiKey.id} "${apiKey.name}". This is the only time it is shown (scopes: ${listScopes(apiKey.scopes)}):\n`,
      );
      process.stdout.write(`${key}\n`);
      return;
    }
    case 'list':
      process.stdout.write(formatTable(await store.list()));
      return;
    case 'revoke': {
      const id = await resolveKeyId(command.key, store);
      const apiKey = await store.revoke(id);
      if (!apiKey) throw new CliError(`no API key has ID ${id}`, 1);
      const within = (await announceRevocation(apiKey.id, config)) ? '1 second' : `${Math.ceil(config.apiKeyCacheMs / 1000)} seconds`;
      process.stdout.write(
        `Revoked API key ${apiKey.id} "${apiKey.name}" (${apiKey.prefix}…) at ${formatDate(apiKey.revokedAt)}; ` +
          `every instance refuses it within ${within}.\n`,
      );
      return;
    }
  }
}

/** The id a reference names; a prefix must belong to exactly one key, revoked or not, so a revoke never guesses. */
async function resolveKeyId(reference: KeyReference, store: ApiKeysRepository): Promise<number> {
  if ('id' in reference) return reference.id;
  const matches = (await store.list()).filter((key) => key.prefix.startsWith(reference.prefix) || reference.prefix.startsWith(key.prefix));
  if (matches.length === 0) throw new CliError(`no API key has a prefix starting with ${reference.prefix}`, 1);
  if (matches.length > 1) {
    const ids = matches.map((key) => key.id).join(', ');
    throw new CliError(
      `${reference.prefix} is the start of ${matches.length} keys' prefixes (ids ${ids}); revoke by ID, or give more of the prefix`,
      2,
    );
  }
  return matches[0].id;
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
    ['ID', 'NAME', 'PREFIX', 'SCOPES', 'CREATED', 'LAST USED', 'REVOKED'],
    ...keys.map((key) => [
      String(key.id),
      key.name,
      `${key.prefix}…`,
      listScopes(key.scopes),
      formatDate(key.createdAt),
      formatDate(key.lastUsedAt, 'never'),
      formatDate(key.revokedAt, '-'),
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => [...row[column]].length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, column) => cell.padEnd(widths[column]))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** Stored scopes as --scopes takes them. */
function listScopes(stored: string): string {
  return [...readScopes(stored)].join(',');
}

function formatDate(date: Date | null, absent = ''): string {
  return date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : absent;
}

async function main(args: readonly string[]): Promise<number> {
  try {
    const command = parseArguments(args);
    if (command.run === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
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
