import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, Header, Headers, HttpStatus } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { hashApiKey } from '../auth/api-key-secret.js';
import { readBearerToken } from '../auth/bearer-token.js';
import { Public } from '../auth/public.decorator.js';
import { AppConfig } from '../config/app-config.js';
import { ApiException } from '../errors/api-exception.js';
import { HttpMetrics } from './http-metrics.js';

/**
 * Prometheus text at GET /metrics, outside /v1 and the API's document, never needing an API key
 * (scrapers should not hold one). The figures say nothing about pets or keys, but they do show
 * traffic, so METRICS_TOKEN, when set, makes the endpoint need `Authorization: Bearer <token>`:
 * set it wherever /metrics is reachable from outside the operator's own network.
 */
@Public()
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  private readonly tokenHash?: Buffer;

  constructor(
    private readonly metrics: HttpMetrics,
    config: AppConfig,
  ) {
    this.tokenHash = config.metricsToken ? Buffer.from(hashApiKey(config.metricsToken), 'hex') : undefined;
  }

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async scrape(@Headers('authorization') authorization?: string): Promise<string> {
    if (this.tokenHash) this.checkToken(readBearerToken(authorization));
    return this.metrics.registry.metrics();
  }

  private checkToken(token: string | undefined): void {
    const challenge = { 'WWW-Authenticate': 'Bearer realm="metrics"' };
    if (token === undefined) {
      throw new ApiException(HttpStatus.UNAUTHORIZED, 'API_KEY_MISSING', 'The metrics token is required.', challenge);
    }
    if (!timingSafeEqual(Buffer.from(hashApiKey(token), 'hex'), this.tokenHash!)) {
      throw new ApiException(HttpStatus.UNAUTHORIZED, 'API_KEY_INVALID', 'The metrics token is not valid.', challenge);
    }
  }
}
