import { DataSource } from 'typeorm';
import { type AppConfig, ConfigError } from '../config/app-config.js';
import { buildDataSourceOptions } from '../database/data-source-options.js';

/**
 * What the operator tools (apikey, requests, sandboxes) share besides their tables: how they fail
 * and the exit code that says so, and how they open the database DATABASE_URL names.
 */

/** A failure the tool explains itself, with its exit code: 1 failed, 2 used wrongly. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/**
 * The database of `config`, opened (and migrated when the service would migrate it), with
 * `entities` for the TypeORM reads the tool makes. A database that cannot be used is a CliError.
 */
export async function openDatabase(config: AppConfig, entities: readonly (new () => object)[] = []): Promise<DataSource> {
  const dataSource = new DataSource({ ...buildDataSourceOptions(config.database, entities), migrationsRun: config.migrationsRun });
  try {
    await dataSource.initialize();
  } catch (error) {
    throw new CliError(`cannot use the database: ${error instanceof Error ? error.message : error}`, 1);
  }
  return dataSource;
}

/** Says on stderr, after the tool's name, why it stopped, and answers its exit code: a bad configuration is a usage error. */
export function reportFailure(tool: string, error: unknown): 1 | 2 {
  const [message, exitCode]: [string, 1 | 2] =
    error instanceof CliError
      ? [error.message, error.exitCode]
      : error instanceof ConfigError
        ? [error.message, 2]
        : [`failed: ${error instanceof Error ? error.message : error}`, 1];
  process.stderr.write(`${tool}: ${message}\n`);
  return exitCode;
}
