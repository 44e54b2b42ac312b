import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadAppConfig } from '../../src/config/app-config.js';

describe('loadAppConfig', () => {
  it('has working defaults for an empty environment: SQLite file, port 3000, migrations on', () => {
    expect(loadAppConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      database: { kind: 'sqlite', file: 'data/petstore.sqlite' },
      apiKeys: [],
      apiKeyCacheMs: 30_000,
      publicBaseUrl: undefined,
      stagingBaseUrl: undefined,
      trustProxy: false,
      migrationsRun: true,
      rateLimitPerMinute: 6000,
      sandboxRateLimitPerMinute: 3000,
      redis: undefined,
      authFailuresPerMinute: 100,
      connections: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 4_096,
        maxConnectionsPerAddress: 256,
      },
      logLevel: 'info',
      logPretty: false,
      metricsToken: undefined,
      production: false,
      webhooks: {
        deliver: true,
        retryScheduleSeconds: [0, 5, 300, 1800, 7200, 18000, 36000, 36000],
        allowedNetworks: [],
        allowHttp: false,
        attemptTimeoutMs: 10_000,
      },
      requestLog: { enabled: true, reads: false, days: 7 },
      sandboxes: { max: 25 },
    });
  });

  it('reads SANDBOXES_MAX, 0 making none, and refuses what is not a count', () => {
    expect(loadAppConfig({ SANDBOXES_MAX: '3' }).sandboxes).toEqual({ max: 3 });
    expect(loadAppConfig({ SANDBOXES_MAX: '0' }).sandboxes).toEqual({ max: 0 });
    expect(() => loadAppConfig({ SANDBOXES_MAX: '-1' })).toThrow(
      'invalid configuration: SANDBOXES_MAX must be an integer from 0 to 10000 (got "-1")',
    );
  });

  it('reads the request log settings, and names each bad one', () => {
    expect(loadAppConfig({ REQUEST_LOG_READS: 'true', REQUEST_LOG_DAYS: '30' }).requestLog).toEqual({
      enabled: true,
      reads: true,
      days: 30,
    });
    expect(loadAppConfig({ REQUEST_LOG: 'false' }).requestLog).toEqual({ enabled: false, reads: false, days: 7 });
    expect(() => loadAppConfig({ REQUEST_LOG: 'off', REQUEST_LOG_READS: 'yes', REQUEST_LOG_DAYS: '0' })).toThrow(
      'invalid configuration: REQUEST_LOG must be true or false (got "off"); REQUEST_LOG_READS must be true or false (got "yes"); ' +
        'REQUEST_LOG_DAYS must be an integer from 1 to 3650 (got "0")',
    );
  });

  it('reads the webhook settings, and names each bad one', () => {
    expect(
      loadAppConfig({
        WEBHOOK_RETRY_SCHEDULE: '0, 2,10',
        WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,fd00::/8,192.0.2.7',
        WEBHOOK_ALLOW_HTTP: 'true',
      }).webhooks,
    ).toMatchObject({ retryScheduleSeconds: [0, 2, 10], allowedNetworks: ['10.0.0.0/8', 'fd00::/8', '192.0.2.7'], allowHttp: true });
    expect(() => loadAppConfig({ WEBHOOK_RETRY_SCHEDULE: '0,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadAppConfig({ WEBHOOK_RETRY_SCHEDULE: '0,90000' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadAppConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/33' })).toThrow(/WEBHOOK_ALLOWED_NETWORKS/);
    expect(() => loadAppConfig({ WEBHOOK_ALLOWED_NETWORKS: 'intranet' })).toThrow(/WEBHOOK_ALLOWED_NETWORKS/);
  });

  it('reads MySQL URLs with the pool size', () => {
    const config = loadAppConfig({ DATABASE_URL: 'mysql://app:s3cret@db:3306/petstore', DB_POOL_SIZE: '4' });
    expect(config.database).toEqual({ kind: 'mysql', url: 'mysql://app:s3cret@db:3306/petstore', poolSize: 4 });
  });

  it.each([
    ['sqlite:data/other.sqlite', 'data/other.sqlite'],
    ['sqlite:/var/lib/petstore.sqlite', '/var/lib/petstore.sqlite'],
    ['sqlite:///var/lib/petstore.sqlite', '/var/lib/petstore.sqlite'],
    ['sqlite::memory:', ':memory:'],
  ])('reads %s as the SQLite file %s', (url, file) => {
    expect(loadAppConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'sqlite', file });
  });

  it('reads REDIS_URL with a key prefix, petstore: by default', () => {
    expect(loadAppConfig({ REDIS_URL: 'redis://cache:6379/2' }).redis).toEqual({ url: 'redis://cache:6379/2', keyPrefix: 'petstore:' });
    expect(loadAppConfig({ REDIS_URL: 'rediss://u:p@cache', REDIS_KEY_PREFIX: 'shop:' }).redis).toEqual({
      url: 'rediss://u:p@cache',
      keyPrefix: 'shop:',
    });
  });

  it.each([
    ['true', true],
    ['2', 2],
    ['loopback, 10.0.0.0/8', 'loopback,10.0.0.0/8'],
    ['::1', '::1'],
  ])('reads TRUST_PROXY=%p as Express takes it', (raw, value) => {
    expect(loadAppConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(value);
  });

  it('splits API_KEYS on commas and drops blanks', () => {
    expect(loadAppConfig({ API_KEYS: ' one, two ,,three ' }).apiKeys).toEqual(['one', 'two', 'three']);
  });

  it('adds /v1 to base URLs that lack it', () => {
    const config = loadAppConfig({ PUBLIC_BASE_URL: 'https://api.example.com/', STAGING_BASE_URL: 'https://s.example.com/v1' });
    expect(config.publicBaseUrl).toBe('https://api.example.com/v1');
    expect(config.stagingBaseUrl).toBe('https://s.example.com/v1');
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer from 0 to 65535 \(got "abc"\)/],
    [{ PORT: '70000' }, /PORT must be an integer/],
    [{ PORT: '-1' }, /PORT must be an integer/],
    [{ PORT: '3000.5' }, /PORT must be an integer/],
    [{ DATABASE_URL: 'postgres://x@y/z' }, /DATABASE_URL must start with sqlite: or mysql:\/\//],
    [{ DATABASE_URL: 'mysql://' }, /DATABASE_URL is not a valid mysql:\/\/ URL/],
    [{ DATABASE_URL: 'mysql://db:3306' }, /DATABASE_URL must name a database/],
    [{ DATABASE_URL: 'sqlite:' }, /DATABASE_URL sqlite: needs a file path/],
    [{ API_KEY_CACHE_MS: '30001' }, /API_KEY_CACHE_MS must be an integer from 0 to 30000/],
    [{ DB_POOL_SIZE: '0' }, /DB_POOL_SIZE must be an integer from 1/],
    [{ MIGRATIONS_RUN: 'yes' }, /MIGRATIONS_RUN must be true or false/],
    [{ RATE_LIMIT_PER_MINUTE: 'lots' }, /RATE_LIMIT_PER_MINUTE must be an integer/],
    [{ SANDBOX_RATE_LIMIT_PER_MINUTE: '-1' }, /SANDBOX_RATE_LIMIT_PER_MINUTE must be an integer from 0 to 1000000/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ TRUST_PROXY: 'proxy.example' }, /TRUST_PROXY must be/],
    [{ TRUST_PROXY: '10.0.0.0/40' }, /TRUST_PROXY must be/],
    [{ REDIS_URL: 'http://cache:6379' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ REDIS_URL: 'redis://cache:6379/x' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ REDIS_URL: 'redis://cache:6379', REDIS_KEY_PREFIX: 'a b' }, /REDIS_KEY_PREFIX must be/],
    [{ AUTH_FAILURES_PER_MINUTE: '-5' }, /AUTH_FAILURES_PER_MINUTE must be an integer from 0/],
    [{ HEADERS_TIMEOUT_MS: '0' }, /HEADERS_TIMEOUT_MS must be an integer from 1/],
    [
      { HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' },
      /HEADERS_TIMEOUT_MS \(20000\) must not exceed REQUEST_TIMEOUT_MS \(10000\)/,
    ],
    [{ KEEP_ALIVE_TIMEOUT_MS: 'long' }, /KEEP_ALIVE_TIMEOUT_MS must be an integer/],
    [{ MAX_CONNECTIONS: '1e3' }, /MAX_CONNECTIONS must be an integer/],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '-1' }, /MAX_CONNECTIONS_PER_ADDRESS must be an integer from 0/],
    [{ LOG_PRETTY: 'yes' }, /LOG_PRETTY must be true or false/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be at least 16 characters/],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, /PUBLIC_BASE_URL must be an absolute http\(s\) URL/],
  ])('rejects %p with a clear message', (env, message) => {
    expect(() => loadAppConfig(env)).toThrow(ConfigError);
    expect(() => loadAppConfig(env)).toThrow(message);
  });

  it('names every problem at once, on one line', () => {
    const message = configErrorOf({ PORT: 'x', LOG_LEVEL: 'y' });
    expect(message).toMatch(/PORT.*; LOG_LEVEL/);
    expect(message).not.toContain('\n');
  });

  it.each(['mysql://app:hunter2@db:3306', 'mysql://app:hunter2@', 'postgres://app:hunter2@db/x'])(
    'never repeats the password of %p in a message',
    (url) => {
      expect(configErrorOf({ DATABASE_URL: url })).not.toContain('hunter2');
    },
  );
});

function configErrorOf(env: Record<string, string>): string {
  try {
    loadAppConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be rejected`);
}
