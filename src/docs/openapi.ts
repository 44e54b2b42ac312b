import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  type HeaderObject,
  type OpenAPIObject,
  type OperationObject,
  type ReferenceObject,
  type ServerVariableObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { InsufficientScopeException } from '../auth/api-key.exceptions.js';
import type { Scope } from '../auth/scopes.js';
import type { AppConfig } from '../config/app-config.js';

export const API_PREFIX = '/v1';

/** The OpenAPI document, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.0.3')
    .setTitle('Pet Store')
    .setDescription(
      'List, add and read the animals of the pet store. Every operation needs an API key sent as ' +
        "`Authorization: Bearer <API_KEY>` that holds the operation's scope (`pets:read`, `pets:write`, " +
        '`store:read` or `store:write`, named in its description and `x-required-scopes`). Errors are always an `Error` object. The API is for calls from ' +
        'servers: a key is a secret that must never sit in a web page, so browsers are granted no origin ' +
        '(no CORS; a preflight is answered 401 `API_KEY_MISSING`, saying so).',
    )
    .setVersion('1.0.0')
    .addTag('pets', 'The animals of the store.')
    .addTag('store', 'Orders and inventory.')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key of the service.' }, 'bearer')
    .addSecurityRequirements('bearer');
  for (const server of servers(config)) builder.addServer(server.url, server.description, server.variables);

  const info = builder.build();
  // DocumentBuilder.setLicense insists on a URL; a proprietary service has none to give.
  info.info.license = { name: 'Proprietary' };
  const document = SwaggerModule.createDocument(app, info);
  // Every server of the document ends in /v1, so the paths are written relative to it.
  document.paths = Object.fromEntries(
    Object.entries(document.paths)
      .filter(([path]) => path.startsWith(`${API_PREFIX}/`))
      .map(([path, item]) => [path.slice(API_PREFIX.length), item]),
  );
  closeRequestBodies(document);
  documentHeadersOfEveryResponse(document);
  describeRequiredScopes(document);
  return document;
}

/** The headers the edge and the rate limit put on responses, declared once and referred to. */
const COMMON_HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description: "The request's identifier, as sent in a sane X-Request-Id or else a new UUID; logs carry it too.",
    schema: { type: 'string', maxLength: 128 },
  },
  'RateLimit-Policy': {
    description: 'IETF httpapi RateLimit fields draft: `"per-key";q=LIMIT;w=60`, the requests an API key may make per minute.',
    schema: { type: 'string', example: '"per-key";q=600;w=60' },
  },
  RateLimit: {
    description: 'IETF httpapi RateLimit fields draft: `"per-key";r=REMAINING;t=SECONDS`, what is left of the window and when it ends.',
    schema: { type: 'string', example: '"per-key";r=599;t=60' },
  },
  'API-Key-Expires': {
    description:
      'Only when the API key expires within 7 days: when, as an HTTP date. Roll the key (or ask for a new one) before then; ' +
      'after it, requests with the key are `401 API_KEY_EXPIRED`.',
    schema: { type: 'string', example: 'Wed, 31 Mar 2027 23:59:59 GMT' },
  },
};

/**
 * Every response has an X-Request-Id (the edge sets it first), and every response to a keyed
 * operation, once its key is accepted (so all but 401), has the RateLimit fields, and
 * API-Key-Expires when the key expires soon.
 */
function documentHeadersOfEveryResponse(document: OpenAPIObject): void {
  document.components = { ...document.components, headers: { ...document.components?.headers, ...COMMON_HEADERS } };
  const ref = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });
  for (const operation of operationsOf(document)) {
    const keyed = (operation.security ?? document.security ?? []).length > 0;
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!response || '$ref' in response) continue;
      const rateLimited = keyed && status !== '401';
      response.headers = {
        ...response.headers,
        'X-Request-Id': ref('X-Request-Id'),
        ...(rateLimited && {
          'RateLimit-Policy': ref('RateLimit-Policy'),
          RateLimit: ref('RateLimit'),
          'API-Key-Expires': ref('API-Key-Expires'),
        }),
      };
    }
  }
}

/**
 * Each operation's description ends by naming the scope its `x-required-scopes` lists, and its 403
 * example names that scope.
 */
function describeRequiredScopes(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    const [scope] = (operation as { 'x-required-scopes'?: string[] })['x-required-scopes'] ?? [];
    if (scope === undefined) continue;
    const needs = `Needs an API key with the scope \`${scope}\`.`;
    operation.description = operation.description ? `${operation.description} ${needs}` : needs;
    const forbidden = operation.responses['403'];
    const example = forbidden && 'content' in forbidden ? forbidden.content?.['application/json']?.examples?.INSUFFICIENT_SCOPE : undefined;
    if (example && 'value' in example)
      example.value = { ...example.value, message: new InsufficientScopeException(scope as Scope).message };
  }
}

/** Every operation of the document, whatever its method. */
function operationsOf(document: OpenAPIObject): OperationObject[] {
  return Object.values(document.paths).flatMap((item) =>
    [item.get, item.post, item.put, item.patch, item.delete].filter((operation) => operation !== undefined),
  );
}

/** Request bodies are strict (a property the schema lacks is a 400), and the document says so. */
function closeRequestBodies(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  for (const operation of operationsOf(document)) {
    const body = operation.requestBody;
    const ref = body && 'content' in body ? body.content['application/json']?.schema : undefined;
    const schema = ref && '$ref' in ref ? schemas[ref.$ref.replace('#/components/schemas/', '')] : undefined;
    if (schema && !('$ref' in schema)) schema.additionalProperties = false;
  }
}

type Server = { url: string; description: string; variables?: Record<string, ServerVariableObject> };

function servers(config: AppConfig): Server[] {
  const listed = [
    config.publicBaseUrl && { url: config.publicBaseUrl, description: 'Production' },
    config.stagingBaseUrl && { url: config.stagingBaseUrl, description: 'Staging' },
  ].filter((server) => !!server);
  if (listed.length > 0) return listed;
  // Absolute once its variables are filled in (a relative URL works only in a browser), with defaults
  // that reach a local run; generated clients take another base URL as the README shows.
  return [
    {
      url: `{scheme}://{host}${API_PREFIX}`,
      description: 'Wherever the service runs; PUBLIC_BASE_URL replaces this with its public address.',
      variables: {
        scheme: { enum: ['http', 'https'], default: 'http', description: 'https behind a TLS-terminating proxy.' },
        host: { default: `localhost:${config.port}`, description: 'The host and port of the service.' },
      },
    },
  ];
}

/** Serves the document as JSON and YAML and Swagger UI, all without a key. */
export function serveOpenApiDocument(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, {
    jsonDocumentUrl: `${API_PREFIX}/openapi.json`,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
  });
}
