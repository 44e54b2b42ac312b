// First: refuses an unsupported Node before anything else loads.
import './supported-node.js';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { type AppConfig, ConfigError, loadAppConfig } from './config/app-config.js';
import { createApp } from './create-app.js';
import { isDatabaseUnavailable, SESSION_REFUSED } from './errors/database-unavailable.js';
import { apiBaseUrl, describeBoundAddress, ownBaseUrl } from './config/service-address.js';
import { QuickStartKey } from './auth/quick-start-key.js';
import { PINO_LOGGER } from './logging/logger.js';

/** In-flight requests get this long to finish after SIGTERM or SIGINT. */
const DRAIN_TIMEOUT_MS = 10_000;

async function main(): Promise<void> {
  const config = loadAppConfig(process.env);
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  // What was bound (PORT=0 asks for any free port), and the address clients on this machine use.
  const bound = app.getHttpServer().address() as AddressInfo;
  const own = ownBaseUrl(config, bound.port);
  const api = apiBaseUrl(config, bound.port);
  const reached = config.publicBaseUrl ? `, reached at ${api}` : '';
  // The key first: whoever waits for the "Listening" line (an operator, a script) has it by then.
  await app.get(QuickStartKey).offer(api);
  const logger = app.get(Logger);
  logger.log(
    `Listening on ${describeBoundAddress(bound)} with ${describeDatabase(config)}; on this machine at ${own}${reached}; docs at ${api}/docs`,
    'Main',
  );
  // The log is written in batches (createLogger): whoever waits for this line gets it now.
  app.get<PinoLogger>(PINO_LOGGER).flush();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop(app, logger, signal));
}

/**
 * Stops accepting connections and closes the idle ones (STOP_IDLE_GRACE_MS later), lets the
 * requests in flight finish and answers them with `Connection: close` (for at most 10 s, then their
 * connections are closed), refuses any request that comes after (see InFlightRequests), closes the
 * database pool, and exits 0.
 */
async function stop(app: NestExpressApplication, logger: Logger, signal: string): Promise<void> {
  logger.log(`${signal}: finishing the requests in flight, then stopping`, 'Main');
  const signalledAt = performance.now();
  const server = app.getHttpServer();
  const deadline = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS).unref();
  let exitCode = 0;
  try {
    await app.close();
    logger.log(`Stopped ${Math.round(performance.now() - signalledAt)} ms after ${signal}`, 'Main');
  } catch (error) {
    logger.error(`Stopping failed: ${error instanceof Error ? error.message : error}`, 'Main');
    exitCode = 1;
  }
  clearTimeout(deadline);
  // Rate-limit counters hold timers of up to a minute; the log is flushed, then the process ends.
  app.get<PinoLogger>(PINO_LOGGER).flush(() => process.exit(exitCode));
}

function describeDatabase({ database }: AppConfig): string {
  return database.kind === 'mysql' ? `MySQL at ${new URL(database.url).host}` : `SQLite file ${database.file}`;
}

main().catch((error: unknown) => {
  // One line, no stack trace: the operator needs to know what to fix, not where it was noticed.
  console.error(`petstore: cannot start: ${describeStartFailure(error)}`);
  process.exit(1);
});

function describeStartFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ConfigError) return message;
  const { syscall, code } = error as NodeJS.ErrnoException;
  if (syscall === 'listen' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return describeListenFailure(code, message);
  const database = process.env.DATABASE_URL?.startsWith('mysql://')
    ? `the database at ${new URL(process.env.DATABASE_URL).host}`
    : 'the database';
  if (code === SESSION_REFUSED) return `${database}: ${message}`;
  if (isDatabaseUnavailable(error)) return `${database} cannot be reached (${message})`;
  // Errors the MySQL server itself sent (access denied, unknown database) carry its error number.
  if (typeof (error as { errno?: unknown }).errno === 'number') return `${database} refused: ${message}`;
  return message;
}

/** Why the service could not listen where PORT and HOST say, in the operator's terms (not the database's). */
function describeListenFailure(code: string | undefined, message: string): string {
  const { PORT: port = '3000', HOST: host = '0.0.0.0' } = process.env;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is in use by another process (choose another PORT, or stop that process)`;
    case 'EACCES':
      return `port ${port} on ${host} needs privileges this process does not have (choose a PORT above 1023)`;
    case 'EADDRNOTAVAIL':
      return `HOST ${host} is not an address of this machine`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST ${host} is no name this machine can resolve`;
    default:
      return `cannot listen on port ${port} of ${host}: ${message}`;
  }
}
