import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Sql } from '../database/sql.js';
import type { FinishedRequest } from '../http/edge.js';
import { routeOf } from '../http/route-table.js';
import { isDeprecatedCall } from '../http/access-log.js';
import { SharedRedis } from '../redis/shared-redis.js';

/**
 * The service's Prometheus metrics, in a registry of its own (so that two instances in one process,
 * as in the tests, do not collide): requests by method, route, status and environment with their
 * duration, the MySQL pool's use, and Node's default process metrics.
 */
@Injectable()
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'petstore_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern, status and environment (live, or sandbox: all sandboxes together).',
    labelNames: ['method', 'route', 'status', 'environment'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'petstore_http_request_duration_seconds',
    help: 'Time from request to the end of the response, by method, route pattern, status and environment (live, or sandbox).',
    labelNames: ['method', 'route', 'status', 'environment'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly deprecatedCalls = new Counter({
    name: 'petstore_deprecated_requests_total',
    help: 'Calls of deprecated operations (getPet until its sunset), by route pattern and API key id: who still has to move.',
    labelNames: ['route', 'key_id'] as const,
    registers: [this.registry],
  });

  constructor(sql: Sql, redis: SharedRedis) {
    collectDefaultMetrics({ register: this.registry });
    if (redis.configured) {
      new Gauge({
        name: 'petstore_redis_shared',
        help: '1 while the rate limit is counted in Redis for all instances, 0 while each instance counts alone.',
        registers: [this.registry],
        collect() {
          this.set(redis.shared ? 1 : 0);
        },
      });
      new Counter({
        name: 'petstore_redis_errors_total',
        help: 'Redis commands and connections that failed or timed out.',
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(redis.errors);
        },
      });
    }
    new Gauge({
      name: 'petstore_db_pool_connections',
      help: 'MySQL pool connections by state (open, idle, in use) and its size limit; absent on SQLite.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const use = sql.poolUse();
        if (!use) return;
        this.set({ state: 'open' }, use.open);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'in_use' }, use.open - use.idle);
        this.set({ state: 'limit' }, use.limit);
      },
    });
    new Gauge({
      name: 'petstore_db_pool_waiting_requests',
      help: 'Queries waiting for a free MySQL pool connection.',
      registers: [this.registry],
      collect() {
        const use = sql.poolUse();
        if (use) this.set(use.waiting);
      },
    });
  }

  /** Counts and times every finished request, documents and errors included (see httpEdge). */
  readonly observe = ({ request, response, durationMs }: FinishedRequest): void => {
    const labels = {
      method: request.method,
      route: routeOf(request) ?? 'unmatched',
      status: String(response.statusCode),
      // The kind, never a sandbox's id: a series per sandbox would grow with them. A request without a valid key is the live service's.
      environment: request.apiKey?.environment.kind ?? 'live',
    };
    this.requests.inc(labels);
    this.duration.observe(labels, durationMs / 1000);
    if (isDeprecatedCall(response)) this.deprecatedCalls.inc({ route: labels.route, key_id: request.apiKey?.keyId ?? 'none' });
  };
}
