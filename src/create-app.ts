import type { LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { buildOpenApiDocument, serveOpenApiDocument } from './docs/openapi.js';
import { requestId } from './http/request-id.js';

/**
 * Builds the service, ready to listen. The one place the Express application is set up, used by
 * main.ts and by the e2e tests alike.
 */
export async function createApp(
  config: AppConfig,
  options: { logger?: LoggerService | LogLevel[] | false } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    // JSON bodies are parsed after authentication, by JsonBodyInterceptor.
    bodyParser: false,
    abortOnError: false,
    logger: options.logger,
  });
  app.disable('x-powered-by');
  // Before the documents and Nest's routes, so that every response has both. Swagger UI loads
  // its scripts and styles from files, which helmet's default content security policy allows;
  // upgrade-insecure-requests is left out because the service is often reached over plain HTTP
  // (compose, a private network), where it would send the browser to https for every asset.
  app.use(requestId, helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  serveOpenApiDocument(app, buildOpenApiDocument(app, config));
  return app;
}
