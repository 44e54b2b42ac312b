/**
 * The service's configuration, read from the environment once at start.
 *
 * Written by hand rather than with @nestjs/config: every variable needs parsing that no schema gives
 * for free (a database URL that picks the driver, base URLs that must end in /v1), the result must be
 * usable outside Nest (the TypeORM CLI, the API-key tool), and a bad value must stop the process with
 * one line before Nest starts, which a module-level validator cannot do.
 */

import { isIP } from 'node:net';

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'mysql'; url: string; poolSize: number };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Injection token and type of the validated configuration. */
export abstract class AppConfig {
  abstract readonly port: number;
  abstract readonly host: string;
  abstract readonly database: DatabaseConfig;
  /** Bootstrap API keys from API_KEYS. */
  abstract readonly apiKeys: readonly string[];
  /** How long a checked stored key is trusted before the database is asked again (bounds revocation). */
  abstract readonly apiKeyCacheMs: number;
  abstract readonly publicBaseUrl?: string;
  abstract readonly stagingBaseUrl?: string;
  /** Express's `trust proxy`: which hops may set X-Forwarded-Proto/-Host/-For (false: none). */
  abstract readonly trustProxy: boolean | number | string;
  abstract readonly migrationsRun: boolean;
  abstract readonly rateLimitPerMinute: number;
  /** Requests all sandboxes' keys together may make per minute, on top of each key's own limit (0: no such budget). */
  abstract readonly sandboxRateLimitPerMinute: number;
  /** Shared rate limit and revocations across instances (see src/redis/); unset: each instance alone. */
  abstract readonly redis?: RedisConfig;
  /** Failed authentications one client address may make per minute before it gets 429 (0: no limit). */
  abstract readonly authFailuresPerMinute: number;
  /** How long clients may take over their connections (see src/http/client-connections.ts). */
  abstract readonly connections: ConnectionBounds;
  abstract readonly logLevel: LogLevel;
  /** Human-readable log lines instead of JSON (development only). */
  abstract readonly logPretty: boolean;
  /** Append the log lines to this file instead of writing them to stdout (the test suite's own log). */
  abstract readonly logFile?: string;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  abstract readonly metricsToken?: string;
  abstract readonly production: boolean;
  /** How events reach webhook endpoints (see src/webhooks/). */
  abstract readonly webhooks: WebhookConfig;
  /** What the request log keeps, and for how long (see src/request-log/). */
  abstract readonly requestLog: RequestLogConfig;
  /** How many sandboxes may be in use at once (see src/sandboxes/). */
  abstract readonly sandboxes: SandboxesConfig;
}

export interface SandboxesConfig {
  /** Sandboxes neither deleted nor expired at once, at most (SANDBOXES_MAX); 0 makes none. */
  readonly max: number;
}

/** SANDBOXES_MAX when unset: DECISIONS "Sandboxes". */
export const DEFAULT_SANDBOXES_MAX = 25;

export interface RequestLogConfig {
  /** Whether the request log is kept at all (REQUEST_LOG); off, nothing is recorded and GET /v1/requests says so. */
  readonly enabled: boolean;
  /** Whether successful reads are kept too (REQUEST_LOG_READS); changes and failures always are. */
  readonly reads: boolean;
  /** Entries are purged this many days after their request (REQUEST_LOG_DAYS). */
  readonly days: number;
}

export interface WebhookConfig {
  /** Whether this instance delivers (WEBHOOK_DELIVERY); every instance records events either way. */
  readonly deliver: boolean;
  /** Seconds to wait before each attempt of a delivery, the first usually 0: their count is the number of attempts. */
  readonly retryScheduleSeconds: readonly number[];
  /** Networks (CIDRs) endpoints may resolve to although private, loopback or link-local. */
  readonly allowedNetworks: readonly string[];
  /** Whether endpoints may be plain http:// (development only). */
  readonly allowHttp: boolean;
  /** How long one attempt may take, connection to last byte. */
  readonly attemptTimeoutMs: number;
}

/** At once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: the last attempt about 28 hours after the first, all within 3 days. */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

export interface RedisConfig {
  readonly url: string;
  /** Put before every key and channel name, so that several deployments (or test runs) can share one Redis. */
  readonly keyPrefix: string;
}

export interface ConnectionBounds {
  /** A request's headers must have arrived this long after it started. */
  readonly headersTimeoutMs: number;
  /** A whole request (headers and body) must have arrived this long after it started. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  readonly keepAliveTimeoutMs: number;
  /** At most this many open connections; 0: no cap. */
  readonly maxConnections: number;
  /** At most this many from one client address (a trusted proxy's excepted); 0: no cap. */
  readonly maxConnectionsPerAddress: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const DEFAULT_SQLITE_FILE = 'data/petstore.sqlite';

/** Requests per API key and minute when RATE_LIMIT_PER_MINUTE is unset (the document's examples show it). */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 6000;
/** Requests of all sandboxes together per minute when SANDBOX_RATE_LIMIT_PER_MINUTE is unset: half a live key's. */
export const DEFAULT_SANDBOX_RATE_LIMIT_PER_MINUTE = 3000;

type Env = Readonly<Record<string, string | undefined>>;

/** Reads every variable, collects every problem, and throws one ConfigError naming them all. */
export function loadAppConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const read = <T>(parse: () => T, fallback: T): T => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
      return fallback;
    }
  };

  const config: AppConfig = {
    port: read(() => parseInteger('PORT', env.PORT, 3000, 0, 65535), 0),
    host: read(() => parseHost(env.HOST), ''),
    database: read(() => parseDatabaseUrl(env.DATABASE_URL, parseInteger('DB_POOL_SIZE', env.DB_POOL_SIZE, 10, 1, 1000)), {
      kind: 'sqlite',
      file: DEFAULT_SQLITE_FILE,
    }),
    apiKeys: (env.API_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key.length > 0),
    apiKeyCacheMs: read(() => parseInteger('API_KEY_CACHE_MS', env.API_KEY_CACHE_MS, 30_000, 0, 30_000), 0),
    publicBaseUrl: read(() => parseBaseUrl('PUBLIC_BASE_URL', env.PUBLIC_BASE_URL), undefined),
    stagingBaseUrl: read(() => parseBaseUrl('STAGING_BASE_URL', env.STAGING_BASE_URL), undefined),
    trustProxy: read(() => parseTrustProxy(env.TRUST_PROXY), false),
    migrationsRun: read(() => parseBoolean('MIGRATIONS_RUN', env.MIGRATIONS_RUN, true), true),
    rateLimitPerMinute: read(
      () => parseInteger('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, DEFAULT_RATE_LIMIT_PER_MINUTE, 0, 1_000_000),
      0,
    ),
    sandboxRateLimitPerMinute: read(
      () =>
        parseInteger(
          'SANDBOX_RATE_LIMIT_PER_MINUTE',
          env.SANDBOX_RATE_LIMIT_PER_MINUTE,
          DEFAULT_SANDBOX_RATE_LIMIT_PER_MINUTE,
          0,
          1_000_000,
        ),
      0,
    ),
    redis: read(() => parseRedis(env.REDIS_URL, env.REDIS_KEY_PREFIX), undefined),
    authFailuresPerMinute: read(() => parseInteger('AUTH_FAILURES_PER_MINUTE', env.AUTH_FAILURES_PER_MINUTE, 100, 0, 1_000_000), 0),
    connections: read(() => parseConnectionBounds(env), {
      headersTimeoutMs: 0,
      requestTimeoutMs: 0,
      keepAliveTimeoutMs: 0,
      maxConnections: 0,
      maxConnectionsPerAddress: 0,
    }),
    logLevel: read(() => parseLogLevel(env.LOG_LEVEL), 'info'),
    logPretty: read(() => parseBoolean('LOG_PRETTY', env.LOG_PRETTY, false), false),
    logFile: env.LOG_FILE || undefined,
    metricsToken: read(() => parseSecret('METRICS_TOKEN', env.METRICS_TOKEN), undefined),
    production: env.NODE_ENV === 'production',
    webhooks: {
      deliver: read(() => parseBoolean('WEBHOOK_DELIVERY', env.WEBHOOK_DELIVERY, true), true),
      retryScheduleSeconds: read(() => parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE), DEFAULT_RETRY_SCHEDULE_SECONDS),
      allowedNetworks: read(() => parseNetworks(env.WEBHOOK_ALLOWED_NETWORKS), []),
      allowHttp: read(() => parseBoolean('WEBHOOK_ALLOW_HTTP', env.WEBHOOK_ALLOW_HTTP, false), false),
      attemptTimeoutMs: read(() => parseInteger('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 10_000, 100, 60_000), 10_000),
    },
    requestLog: {
      enabled: read(() => parseBoolean('REQUEST_LOG', env.REQUEST_LOG, true), true),
      reads: read(() => parseBoolean('REQUEST_LOG_READS', env.REQUEST_LOG_READS, false), false),
      days: read(() => parseInteger('REQUEST_LOG_DAYS', env.REQUEST_LOG_DAYS, 7, 1, 3650), 7),
    },
    sandboxes: {
      max: read(() => parseInteger('SANDBOXES_MAX', env.SANDBOXES_MAX, DEFAULT_SANDBOXES_MAX, 0, 10_000), DEFAULT_SANDBOXES_MAX),
    },
  };

  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return config;
}

function parseInteger(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

/** `redis://[user:password@]host[:port][/db]` or `rediss://…`; messages never repeat a password. */
function parseRedis(raw: string | undefined, prefix: string | undefined): RedisConfig | undefined {
  if (raw === undefined || raw === '') return undefined;
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname || !/^\/?\d*$/.test(url.pathname)) {
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL, as in redis://redis:6379 or redis://host:6379/2');
  }
  const keyPrefix = prefix === undefined || prefix === '' ? 'petstore:' : prefix;
  if (!/^[\x21-\x7e]{1,64}$/.test(keyPrefix)) throw new ConfigError('REDIS_KEY_PREFIX must be 1 to 64 visible ASCII characters');
  return { url: raw, keyPrefix };
}

function parseConnectionBounds(env: Env): ConnectionBounds {
  const hour = 3_600_000;
  const bounds = {
    headersTimeoutMs: parseInteger('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, 10_000, 1, hour),
    requestTimeoutMs: parseInteger('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 30_000, 1, hour),
    keepAliveTimeoutMs: parseInteger('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS, 5_000, 1, hour),
    // Sized for one instance in 256 MB: 4,096 slow connections cost about 35 MB (see the README).
    maxConnections: parseInteger('MAX_CONNECTIONS', env.MAX_CONNECTIONS, 4_096, 0, 1_000_000),
    // Room for a client's keep-alive pool behind a NAT; a slow-connection flood from one address holds no more.
    maxConnectionsPerAddress: parseInteger('MAX_CONNECTIONS_PER_ADDRESS', env.MAX_CONNECTIONS_PER_ADDRESS, 256, 0, 1_000_000),
  };
  // Node refuses a server whose headers may take longer than the whole request.
  if (bounds.headersTimeoutMs > bounds.requestTimeoutMs) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS (${bounds.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${bounds.requestTimeoutMs})`,
    );
  }
  return bounds;
}

/**
 * Express's trust-proxy values: `true`/`false`, a number of hops, or a comma-separated list of
 * addresses, subnets (CIDR) and the names `loopback`, `linklocal`, `uniquelocal`.
 */
function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const valid = (token: string) => {
    const [address, bits, ...rest] = token.split('/');
    const family = isIP(address);
    const maxBits = family === 4 ? 32 : 128;
    return (
      ['loopback', 'linklocal', 'uniquelocal'].includes(token) ||
      (family !== 0 && rest.length === 0 && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits)))
    );
  };
  const tokens = raw.split(',').map((token) => token.trim());
  if (!tokens.every(valid)) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false, a hop count, or addresses, subnets and loopback/linklocal/uniquelocal (got "${raw}")`,
    );
  }
  return tokens.join(',');
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

/** A shared secret: long enough not to be guessed. The message never repeats it. */
function parseSecret(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16 || /\s/.test(raw)) throw new ConfigError(`${name} must be at least 16 characters without white space`);
  return raw;
}

/** Comma-separated seconds, 1 to 20 of them, each at most a day. */
function parseRetrySchedule(raw: string | undefined): readonly number[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_RETRY_SCHEDULE_SECONDS;
  const seconds = raw.split(',').map((part) => part.trim());
  if (seconds.length > 20 || seconds.some((part) => !/^\d{1,5}$/.test(part) || Number(part) > 86_400)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be 1 to 20 comma-separated whole seconds, each at most 86400 (got "${raw}")`);
  }
  return seconds.map(Number);
}

/** Comma-separated CIDRs (`10.0.0.0/8`, `fd00::/8`) or single addresses. */
function parseNetworks(raw: string | undefined): readonly string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const networks = raw.split(',').map((part) => part.trim());
  for (const network of networks) {
    const [address, bits, ...rest] = network.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    if (family === 0 || rest.length > 0 || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > maxBits))) {
      throw new ConfigError(`WEBHOOK_ALLOWED_NETWORKS must be comma-separated CIDRs such as 10.0.0.0/8 (got "${network}")`);
    }
  }
  return networks;
}

function parseHost(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '0.0.0.0';
  if (/\s/.test(raw)) throw new ConfigError(`HOST must be a host name or address (got "${raw}")`);
  return raw;
}

function parseLogLevel(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === raw);
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`);
  return level;
}

/** A base URL for the document's servers; the /v1 segment is added when the value lacks it. */
function parseBaseUrl(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new ConfigError(`${name} must be an absolute http(s) URL without query or fragment (got "${raw}")`);
  }
  const base = url.href.replace(/\/+$/, '');
  return base.endsWith('/v1') ? base : `${base}/v1`;
}

/**
 * `sqlite:PATH` (relative to the working directory), `sqlite::memory:`, or
 * `mysql://user:password@host:port/database`. Messages never repeat a password.
 */
export function parseDatabaseUrl(raw: string | undefined, poolSize = 10): DatabaseConfig {
  if (raw === undefined || raw === '') return { kind: 'sqlite', file: DEFAULT_SQLITE_FILE };
  if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') throw new ConfigError('DATABASE_URL sqlite: needs a file path, for example sqlite:data/petstore.sqlite');
    return { kind: 'sqlite', file };
  }
  if (raw.startsWith('mysql://')) {
    const url = URL.parse(raw);
    const database = url ? decodeURIComponent(url.pathname.slice(1)) : '';
    if (!url || !url.hostname) {
      throw new ConfigError('DATABASE_URL is not a valid mysql:// URL (expected mysql://user:password@host:3306/database)');
    }
    if (!/^[A-Za-z0-9_$-]+$/.test(database)) {
      throw new ConfigError(`DATABASE_URL must name a database after the host, as in mysql://${url.host}/petstore`);
    }
    return { kind: 'mysql', url: raw, poolSize };
  }
  throw new ConfigError('DATABASE_URL must start with sqlite: or mysql:// (for example mysql://user:password@host:3306/petstore)');
}
