import type { LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import { buildOpenApiDocument, serveOpenApiDocument } from './docs/openapi.js';

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
  serveOpenApiDocument(app, buildOpenApiDocument(app, config));
  return app;
}
