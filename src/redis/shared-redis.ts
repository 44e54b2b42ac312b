import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config.js';
import { PINO_LOGGER } from '../logging/logger.js';

/** A command that does not answer within this is given up: no request waits longer on Redis. */
const COMMAND_TIMEOUT_MS = 250;
/** When ioredis itself drops a command given up on (answeredWithin decides for the caller), so that a silent Redis keeps none. */
const COMMAND_DROPPED_AFTER_MS = 5_000;
/** After a failure, Redis is left alone this long (requests use each instance's own state meanwhile). */
const REST_AFTER_FAILURE_MS = 1_000;
/** How long the service's start waits for Redis before it listens without it (as long as a connection may take). */
const START_WAIT_MS = 1_000;

/** ioredis, loaded only when REDIS_URL is set: the key tools and a service without Redis start faster without it. */
const ioredis = () => createRequire(import.meta.url)('ioredis') as typeof import('ioredis');

/**
 * `command`'s answer, or a rejection once `ms` have passed without one, decided only after the event
 * loop has read what arrived meanwhile. When the process stalls (a long collection, a busy moment) the
 * timer fires late, and Redis's answer may be waiting in the socket by then; a timer alone (as
 * ioredis's commandTimeout) fires before the answer is read, and calls a Redis that answered in
 * time unreachable. Timers run before I/O in each turn of the loop, and setImmediate after it.
 */
function answeredWithin<T>(command: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer within ${ms} ms`))), ms);
    command.then(
      (answer) => {
        clearTimeout(timer);
        resolve(answer);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

const OPTIONS: RedisOptions = {
  connectTimeout: 1_000,
  // Reconnects for ever, never more than 2 s apart.
  retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
};

/**
 * One fixed-window count in Redis, atomically: the key's hits in its window, the milliseconds left
 * in it, and whether the hit was refused. A refused hit is not counted, as in the local counter.
 */
const RATE_LIMIT_HIT = `
local hits = tonumber(redis.call('GET', KEYS[1]) or '0')
if hits >= tonumber(ARGV[2]) then return {hits + 1, redis.call('PTTL', KEYS[1]), 1} end
hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {hits, redis.call('PTTL', KEYS[1]), 0}`;

interface SharedCommands {
  rateLimitHit(key: string, windowMs: number, limit: number): Promise<[number, number, number]>;
}

/**
 * The service's Redis when REDIS_URL is set: an accelerator that lets instances share the rate
 * limit and hear of revocations at once, never something a request depends on. Commands fail fast
 * (no queue while disconnected, 250 ms at most), a failure leaves Redis alone for a second, and
 * the caller falls back to the instance's own state. The outage and the recovery are logged once.
 * The start waits for Redis (a second at most) before the service listens, so that an instance
 * shares the count from its first request instead of counting alone for its first second.
 */
@Injectable()
export class SharedRedis implements OnApplicationBootstrap, OnApplicationShutdown {
  /** pino itself rather than Nest's Logger, which is silent while the service starts (createApp), when Redis is first met. */
  private readonly logger?: Logger;
  private readonly client?: Redis & SharedCommands;
  private subscriber?: Redis;
  private readonly url?: string;
  private readonly prefix: string;
  private restUntil = 0;
  /** Whether the last contact with Redis worked (false while it is away). */
  private reachable = true;
  private failures = 0;

  constructor(config: AppConfig, @Optional() @Inject(PINO_LOGGER) logger?: Logger) {
    this.logger = logger?.child({ context: 'SharedRedis' });
    this.prefix = config.redis?.keyPrefix ?? '';
    this.url = config.redis?.url;
    if (!config.redis) return;
    const client = new (ioredis().Redis)(config.redis.url, {
      ...OPTIONS,
      // The first connection's ready check (INFO) may take as long as the start waits: on a busy
      // machine a starting service answers late. Once ready, no command waits longer than 250 ms
      // (answeredWithin, in run).
      commandTimeout: START_WAIT_MS,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Connected once the service has been built (whenReady): while the process is still busy
      // building it, Redis's answer to the first command waits behind that work and times out.
      lazyConnect: true,
    });
    client.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: RATE_LIMIT_HIT });
    client.on('error', (error: Error) => this.failed(error));
    client.on('ready', () => {
      // ioredis reads the option at each command.
      client.options.commandTimeout = COMMAND_DROPPED_AFTER_MS;
      // A connection that is ready again has answered: no need to leave Redis alone any longer.
      this.restUntil = 0;
    });
    this.client = client as Redis & SharedCommands;
  }

  /** Commands and connections that failed or timed out since the start (for /metrics). */
  get errors(): number {
    return this.failures;
  }

  /** Whether REDIS_URL is set. */
  get configured(): boolean {
    return this.client !== undefined;
  }

  /** Whether instances share the rate limit right now. */
  get shared(): boolean {
    return this.configured && this.reachable && Date.now() >= this.restUntil;
  }

  /** Counts a hit in a shared fixed window; undefined when Redis could not be asked. */
  rateLimitHit(key: string, windowMs: number, limit: number): Promise<[number, number, number] | undefined> {
    return this.run((client) => client.rateLimitHit(`${this.prefix}rate:${key}`, windowMs, limit));
  }

  /** Whether Redis answers a PING now (for readiness). */
  async ping(): Promise<boolean> {
    return (await this.run((client) => client.ping())) === 'PONG';
  }

  /** Connects, and resolves with true once connected, or with false after `timeoutMs` (commands sent before then are not queued). */
  async whenReady(timeoutMs: number): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    if (client.status === 'wait') client.connect().catch(() => undefined);
    if (client.status === 'ready') return true;
    return new Promise((settle) => {
      const ready = () => {
        clearTimeout(timer);
        settle(true);
      };
      const timer = setTimeout(() => {
        client.off('ready', ready);
        settle(false);
      }, timeoutMs);
      client.once('ready', ready);
    });
  }

  /** Before the service listens: Redis connected, or said to be away (then each instance counts alone until it answers). */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.configured || (await this.whenReady(START_WAIT_MS))) return;
    this.failed(new Error(`not ready within ${START_WAIT_MS} ms of the start`));
  }

  /** Tells every instance; false when Redis could not be reached. */
  async publish(channel: string, message: string): Promise<boolean> {
    return (await this.run((client) => client.publish(`${this.prefix}${channel}`, message))) !== undefined;
  }

  /** Calls `onMessage` for every message on the channel, from now on and after every reconnect. */
  subscribe(channel: string, onMessage: (message: string) => void): void {
    if (!this.url) return;
    // Its own connection (a subscribed one can do nothing else); it waits for Redis, and ioredis
    // renews the subscription after every reconnect.
    this.subscriber ??= new (ioredis().Redis)(this.url, { ...OPTIONS, maxRetriesPerRequest: null }).on('error', () => undefined);
    const name = `${this.prefix}${channel}`;
    this.subscriber.on('message', (from: string, message: string) => from === name && onMessage(message));
    this.subscriber.subscribe(name).catch((error: Error) => this.logger?.warn(`cannot subscribe to ${name}: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    this.client?.disconnect();
    this.subscriber?.disconnect();
  }

  private async run<T>(command: (client: Redis & SharedCommands) => Promise<T>): Promise<T | undefined> {
    if (!this.client || Date.now() < this.restUntil) return undefined;
    try {
      const result = await answeredWithin(command(this.client), COMMAND_TIMEOUT_MS);
      if (!this.reachable) {
        this.reachable = true;
        this.logger?.info('Redis answers again: the rate limit is shared and revocations are heard at once');
      }
      return result;
    } catch (error) {
      this.failed(error as Error);
      return undefined;
    }
  }

  private failed(error: Error): void {
    this.failures++;
    this.restUntil = Date.now() + REST_AFTER_FAILURE_MS;
    if (!this.reachable) return;
    this.reachable = false;
    this.logger?.warn(
      `Redis cannot be reached (${error.message}): each instance counts the rate limit alone until it is back; ` +
        'a changed key still reaches every instance within 1 s, through the database',
    );
  }
}
