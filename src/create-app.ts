import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { AppModule, DOCUMENT_CONTRIBUTIONS } from './app.module.js';
import type { AppConfig } from './config/app-config.js';
import type { Clock } from './config/clock.js';
import { buildOpenApiDocument, operationOf, serveOpenApiDocument } from './openapi/openapi.js';
import { ApiExpressAdapter } from './http/api-express-adapter.js';
import { cacheValidationMetadata } from './platform/class-validator-metadata.js';
import { boundClientConnections } from './http/client-connections.js';
import { constantHeaders, httpEdge } from './http/edge.js';
import { InFlightRequests } from './http/in-flight-requests.js';
import { loadJsonBodyParser } from './http/json-body.js';
import { PUBLIC_BASE_URL_SETTING } from './http/request-origin.js';
import { RouteTable } from './http/route-table.js';
import { trustedProxies } from './http/trusted-proxies.js';
import { UnroutedRequests } from './http/unrouted-requests.js';
import { databaseOutageLog } from './http/outage-log.js';
import { PINO_LOGGER } from './logging/logger.js';
import { accessLogLine } from './http/access-log.js';
import { HttpMetrics } from './metrics/http-metrics.js';
import { RequestLogWriter } from './request-log/request-log.writer.js';
import { parseQueryString } from './validation/query-string.js';

/**
 * Builds and initialises the service, ready to listen: the one place the Express application is
 * set up, used by main.ts and by the e2e tests alike. Throws, without logging, when the service
 * cannot start (the database is out of reach, a migration fails): the caller says it once. A test
 * may pass the clock the service reads the time from.
 */
export async function createApp(config: AppConfig, { clock }: { clock?: Clock } = {}): Promise<NestExpressApplication> {
  cacheValidationMetadata();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, clock), new ApiExpressAdapter(), {
    // JSON bodies are read after authentication, by the route (readJsonBody).
    bodyParser: false,
    abortOnError: false,
    // Quiet while starting: Nest's own start-up chatter and retry stack traces stay out of the
    // log; the pino logger takes over once the service is up.
    logger: false,
  });
  app.disable('x-powered-by');
  // Absolute URLs (Location, Link): from PUBLIC_BASE_URL, or from the request, trusting
  // X-Forwarded-* only from the hops TRUST_PROXY names (Express's own setting; it also decides
  // which address failed authentications are counted against).
  app.set(PUBLIC_BASE_URL_SETTING, config.publicBaseUrl);
  const trustProxy = trustedProxies(config.trustProxy);
  app.set('trust proxy', trustProxy);
  // Express's own parser, with a mark on a query it could not read whole, for the validation pipe's 400.
  app.set('query parser', parseQueryString);
  // Express would hash every response body for a weak ETag that no API client revalidates with.
  app.set('etag', false);
  const serverMethods = () => app.get(RouteTable).methodsOfAnyRoute();
  const document = buildOpenApiDocument(app, config, DOCUMENT_CONTRIBUTIONS);
  const requestLog = app.get(RequestLogWriter).recorder(operationOf(document));
  // Ahead of the documents and of Nest's routes, so that every response has an X-Request-Id, is
  // logged and counted, and carries helmet's headers. Swagger UI loads its scripts and styles from
  // files, which helmet's content security policy allows; upgrade-insecure-requests is left out
  // because the service is often reached over plain HTTP (compose, a private network), where it
  // would send the browser to https for every asset.
  app.use(
    httpEdge({
      headers: constantHeaders(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } })),
      finished: [
        accessLogLine(app.get<PinoLogger>(PINO_LOGGER)),
        ...(requestLog ? [requestLog] : []),
        databaseOutageLog(app.get<PinoLogger>(PINO_LOGGER)),
        app.get(HttpMetrics).observe,
      ],
      inFlight: app.get(InFlightRequests),
      serverMethods,
    }),
  );
  // Hop 0 is the connection's own peer.
  boundClientConnections(app.getHttpServer(), config.connections, serverMethods, (address) => trustProxy(address, 0));
  serveOpenApiDocument(app, document);
  // After the documents, ahead of the routes app.init() adds: what no route takes is answered here.
  app.use(app.get(UnroutedRequests).handle);
  await app.init();
  await loadJsonBodyParser();
  app.useLogger(app.get(Logger));
  return app;
}
