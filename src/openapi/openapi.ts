import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  type HeaderObject,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type SchemaObject,
  SwaggerModule,
} from '@nestjs/swagger';
import type { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { insufficientScopeMessage } from '../auth/api-key.exceptions.js';
import type { Scope } from '../auth/scopes.js';
import { API_VERSION } from '../config/api-version.js';
import { type AppConfig, DEFAULT_RATE_LIMIT_PER_MINUTE } from '../config/app-config.js';
import { ownBaseUrl } from '../config/service-address.js';
import { RouteNotFoundException } from '../errors/api-exception.js';
import { errorCodesByStatus } from './api-error-responses.decorator.js';
import { swaggerUiAssets } from './swagger-ui-assets.js';

export const API_PREFIX = '/v1';

/**
 * Who publishes the API, as integrators look for it in `info` and `externalDocs`. The addresses are
 * under petstore.example (a name reserved for examples, RFC 2606) until the company names its own.
 */
const PUBLISHER = {
  contact: 'Pet Store API support',
  email: 'api-support@petstore.example',
  support: 'https://petstore.example/support',
  terms: 'https://petstore.example/legal/api-terms',
  guide: 'https://petstore.example/docs/api',
} as const;

/**
 * What a feature adds to the document beyond what its controllers and DTOs say (the webhooks: each
 * event's payload and the delivery callback). Handed in from above, so that docs/ imports no feature.
 */
export type DocumentContribution = (document: OpenAPIObject) => void;

/** The OpenAPI document, generated from the controllers and DTOs, then `contributions` in order. */
export function buildOpenApiDocument(
  app: INestApplication,
  config: AppConfig,
  contributions: readonly DocumentContribution[],
): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.0.3')
    .setTitle('Pet Store')
    .setDescription(
      'List, add, change and read the animals of the pet store, and order them. Every operation needs an API key sent as ' +
        "`Authorization: Bearer <API_KEY>` that holds the operation's scopes (`pets:read`, `pets:write`, " +
        '`store:read`, `store:write`, `webhooks:read`, `webhooks:write` or `requests:read`, named in its description and `x-required-scopes`); ' +
        'a change of an existing resource needs its read scope as well as its write scope. Errors are always an `Error` object. The API is for calls from ' +
        'servers: a key is a secret that must never sit in a web page, so browsers are granted no origin ' +
        '(no CORS; a preflight is answered 401 `API_KEY_MISSING`, saying so). Query parameters are strict in value and ' +
        'form (a known one sent as an array or object, `status[]=sold`, is a 400 naming it) and tolerant in name: an ' +
        'unknown one is ignored, so that a cache-buster never breaks. Single animals and orders, and pages, carry a strong ' +
        '`ETag`: `If-None-Match` answers `304 Not Modified` when nothing changed, `If-Match` makes a change apply only to ' +
        'what you saw.',
    )
    .setVersion(API_VERSION)
    .setContact(PUBLISHER.contact, PUBLISHER.support, PUBLISHER.email)
    .setExternalDoc('How to call, run and operate the service', PUBLISHER.guide)
    .addTag('pets', 'The animals of the store.')
    .addTag('store', 'Orders and inventory.')
    .addTag('webhooks', 'Events, and the endpoints they are POSTed to, signed (docs/WEBHOOKS.md).')
    .addTag('requests', 'The request log: the requests your key made, as the service answered them.')
    .addTag('sandboxes', 'Environments of their own, for your tests: made and removed with a live key (docs/TESTING.md).')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key of the service.' }, 'bearer')
    .addSecurityRequirements('bearer');
  for (const server of servers(config)) builder.addServer(server.url, server.description);

  builder.setLicense('Proprietary', PUBLISHER.terms);
  const document = SwaggerModule.createDocument(app, builder.build());
  // Every server of the document ends in /v1, so the paths are written relative to it.
  document.paths = Object.fromEntries(
    Object.entries(document.paths)
      .filter(([path]) => path.startsWith(`${API_PREFIX}/`))
      .map(([path, item]) => [path.slice(API_PREFIX.length), item]),
  );
  closeRequestBodies(document);
  describeObjectParameters(document);
  giveRequestDefaultsSchemasOfTheirOwn(document);
  documentHeadersOfEveryResponse(document);
  describeRequiredScopes(document);
  listErrorCodesByStatus(document);
  giveEveryParameterAnExample(document);
  for (const contribute of contributions) contribute(document);
  return document;
}

/**
 * Path and query parameters show an example, which Swagger UI's Try it out fills in and a contract
 * tester (Dredd) sends: the one its decorator gives, else its schema's, else its enum's first value,
 * else its minimum. Nest's document keeps no example beside a schema of the parameter's. A required
 * one must have one; an optional one goes without when no value is safe to send unasked, as a
 * cursor (page-query.dto.ts).
 */
function giveEveryParameterAnExample(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    for (const parameter of operation.parameters ?? []) {
      if ('$ref' in parameter || (parameter.in !== 'path' && parameter.in !== 'query') || parameter.example !== undefined) continue;
      const schema = resolved(document, parameter.schema);
      parameter.example = schema?.example ?? schema?.enum?.[0] ?? schema?.minimum;
      if (parameter.example === undefined && parameter.required)
        throw new Error(`${parameter.in} parameter ${parameter.name} has no example`);
    }
  }
}

function resolved(document: OpenAPIObject, schema: SchemaObject | ReferenceObject | undefined): SchemaObject | undefined {
  if (!schema || !('$ref' in schema)) return schema;
  const found = document.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')];
  return found && !('$ref' in found) ? found : undefined;
}

/**
 * The Error schema says which codes each status carries (`x-codes-by-status`), so that a client can
 * type an error of a status with its codes (the SDK's NotFoundError: PET_NOT_FOUND, ...).
 */
function listErrorCodesByStatus(document: OpenAPIObject): void {
  const error = document.components?.schemas?.Error;
  if (!error || '$ref' in error) throw new Error('the document has no Error schema');
  error.description = `${error.description} \`x-codes-by-status\` lists the codes each HTTP status carries.`;
  Object.assign(error, { 'x-codes-by-status': errorCodesByStatus() });
}

/** The headers the edge and the rate limit put on responses, declared once and referred to. */
const COMMON_HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description: "The request's identifier, as sent in a sane X-Request-Id or else a new UUID; logs carry it too.",
    schema: { type: 'string', maxLength: 128 },
  },
  'RateLimit-Policy': {
    description:
      'IETF httpapi RateLimit fields draft: `"per-key";q=LIMIT;w=60`, the requests an API key may make per minute; a sandbox key\'s ' +
      'adds `, "sandboxes";q=LIMIT;w=60`, the budget all sandboxes share.',
    schema: { type: 'string', example: `"per-key";q=${DEFAULT_RATE_LIMIT_PER_MINUTE};w=60` },
  },
  RateLimit: {
    description:
      'IETF httpapi RateLimit fields draft: `"per-key";r=REMAINING;t=SECONDS`, what is left of the window and when it ends; a ' +
      'sandbox key\'s adds `, "sandboxes";r=REMAINING;t=SECONDS` for the budget all sandboxes share.',
    schema: { type: 'string', example: `"per-key";r=${DEFAULT_RATE_LIMIT_PER_MINUTE - 1};t=60` },
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
 * Each operation's description ends by naming the scopes its `x-required-scopes` lists, and its 403
 * example names them.
 */
function describeRequiredScopes(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    const scopes = ((operation as { 'x-required-scopes'?: Scope[] })['x-required-scopes'] ?? []) as Scope[];
    if (scopes.length === 0) continue;
    const named = scopes.map((scope) => `\`${scope}\``);
    const needs =
      named.length === 1
        ? `Needs an API key with the scope ${named[0]}.`
        : `Needs an API key with the scopes ${named.slice(0, -1).join(', ')} and ${named.at(-1)}: a change shows what it changes.`;
    operation.description = operation.description ? `${operation.description} ${needs}` : needs;
    const forbidden = operation.responses['403'];
    const example = forbidden && 'content' in forbidden ? forbidden.content?.['application/json']?.examples?.INSUFFICIENT_SCOPE : undefined;
    if (example && 'value' in example) example.value = { ...example.value, message: insufficientScopeMessage(scopes) };
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

/**
 * A query parameter that is an object is sent as `name[key]=value` (QueryObject): OpenAPI's
 * deepObject. Its example is the empty object, which sends nothing: without one Swagger UI fills in
 * a sample of the schema (`additionalProp1=string`) and sends it unasked.
 */
function describeObjectParameters(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    for (const parameter of operation.parameters ?? []) {
      if ('$ref' in parameter || parameter.in !== 'query' || resolved(document, parameter.schema)?.type !== 'object') continue;
      parameter.style = 'deepObject';
      parameter.explode = true;
      parameter.example = {};
    }
  }
}

/**
 * A property of a request body with a `default` (NewPet.status, NewOrder.status and .complete)
 * refers to a schema of its own that carries it (NewPetStatus: a PetStatus, `default: available`).
 * openapi-typescript writes a property that has a default as required, request bodies in
 * components included (openapi-ts/openapi-typescript#1741, #2012), so its clients could not leave
 * one out; behind a $ref it is optional there as in every other generator, and the document still
 * says what the service fills in.
 */
function giveRequestDefaultsSchemasOfTheirOwn(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  for (const operation of operationsOf(document)) {
    const body = operation.requestBody;
    const ref = body && 'content' in body ? body.content['application/json']?.schema : undefined;
    const name = ref && '$ref' in ref ? ref.$ref.replace('#/components/schemas/', '') : undefined;
    const schema = name === undefined ? undefined : schemas[name];
    if (!schema || '$ref' in schema) continue;
    for (const [property, definition] of Object.entries(schema.properties ?? {})) {
      if ('$ref' in definition || definition.default === undefined) continue;
      const own = `${name}${property[0].toUpperCase()}${property.slice(1)}`;
      schemas[own] = definition;
      schema.properties![property] = { $ref: `#/components/schemas/${own}` };
    }
  }
}

type Server = { url: string; description: string };

/**
 * Production and staging when configured; else this server's own address, concrete, so that a
 * client generated from the document (the committed one: http://localhost:3000/v1) calls it as it is.
 */
function servers(config: AppConfig): Server[] {
  const listed = [
    config.publicBaseUrl && { url: config.publicBaseUrl, description: 'Production' },
    config.stagingBaseUrl && { url: config.stagingBaseUrl, description: 'Staging' },
  ].filter((server) => !!server);
  if (listed.length > 0) return listed;
  return [{ url: ownBaseUrl(config), description: 'This server (PUBLIC_BASE_URL names the public one when set)' }];
}

/**
 * Swagger UI's Try it out, made to work as it is (loaded by its page as a file, try-it-out.js: the
 * page's Content-Security-Policy runs no inline script):
 * - It calls the first server of the document: the address the page was opened at is put first, so
 *   that Try it out works wherever that is (127.0.0.1, a proxy's name, an internal address while
 *   PUBLIC_BASE_URL names the public one) and stays within the policy's connect-src 'self'. The
 *   document's own servers follow, to be chosen from.
 * - An operation that takes an Idempotency-Key, executed with the field left empty, is sent with a
 *   fresh key: each Execute is a request of its own (a key typed in is sent as it is, to try a
 *   replay). getRandomValues, not randomUUID: a page opened over plain http at an internal address
 *   is no secure context.
 */
const TRY_IT_OUT_SCRIPT = `(function () {
  var build = window.SwaggerUIBundle;
  var thisServer = window.location.origin + window.location.pathname.replace(/\\/docs(\\/.*)?$/, '');
  var KEY = /^idempotency-key$/i;

  function keyedOperations(paths) {
    var keyed = [];
    Object.keys(paths).forEach(function (path) {
      Object.keys(paths[path]).forEach(function (method) {
        var parameters = (paths[path][method] && paths[path][method].parameters) || [];
        if (!parameters.some(function (parameter) { return parameter.in === 'header' && KEY.test(parameter.name); })) return;
        var template = path.replace(/[.*+?^$()|[\\]\\\\]/g, '\\\\$&').replace(/\\{[^}]+\\}/g, '[^/]+');
        keyed.push({ method: method.toUpperCase(), path: new RegExp('^' + template + '$') });
      });
    });
    return keyed;
  }

  function freshKey() {
    var bytes = window.crypto.getRandomValues(new Uint8Array(16));
    return 'swagger-ui-' + Array.prototype.map.call(bytes, function (byte) { return (byte + 256).toString(16).slice(1); }).join('');
  }

  window.SwaggerUIBundle = Object.assign(function (options) {
    var spec = options.spec || {};
    var servers = [{ url: thisServer, description: 'This server: the address this page was opened at' }].concat(
      (spec.servers || []).filter(function (server) { return server.url !== thisServer; }),
    );
    var keyed = keyedOperations(spec.paths || {});
    function takesKey(request) {
      var url = request.url.split('?')[0];
      return servers.some(function (server) {
        if (url.indexOf(server.url + '/') !== 0) return false;
        var path = url.slice(server.url.length);
        return keyed.some(function (operation) { return operation.method === request.method && operation.path.test(path); });
      });
    }
    var asked = options.requestInterceptor;
    return build(Object.assign({}, options, {
      spec: Object.assign({}, spec, { servers: servers }),
      requestInterceptor: function (request) {
        var headers = request.headers || (request.headers = {});
        if (takesKey(request) && !Object.keys(headers).some(function (name) { return KEY.test(name); })) {
          headers['Idempotency-Key'] = freshKey();
        }
        return asked ? asked(request) : request;
      },
    }));
  }, build);
})();
`;

/** Serves the document as JSON and YAML and Swagger UI, all without a key. */
export function serveOpenApiDocument(app: NestExpressApplication, document: OpenAPIObject): void {
  const page = `${API_PREFIX}/docs`;
  // Through the adapter, as Nest and SwaggerModule register theirs: the route table knows them all.
  const routes = app.getHttpAdapter() as ExpressAdapter;
  // The page's relative addresses (its assets, try-it-out.js) resolve under /docs/ only, so
  // the address the start-up line and the README give is sent there; a relative Location keeps a
  // proxy's path prefix (/petstore/v1/docs to /petstore/v1/docs/) and the query string.
  routes.get(page, (request: Request, response: Response, next: unknown) => {
    if (request.path.endsWith('/')) return (next as NextFunction)();
    const query = request.originalUrl.indexOf('?');
    response.redirect(301, `docs/${query < 0 ? '' : request.originalUrl.slice(query)}`);
  });
  routes.get(
    `${page}/try-it-out.js`,
    (_request: Request, response: Response) => void response.type('application/javascript').send(TRY_IT_OUT_SCRIPT),
  );
  // Ahead of SwaggerModule's static files: the page's own, from memory.
  routes.get(`${page}/:asset`, swaggerUiAssets());
  SwaggerModule.setup(page, app, document, {
    jsonDocumentUrl: `${API_PREFIX}/openapi.json`,
    yamlDocumentUrl: `${API_PREFIX}/openapi.yaml`,
    customJs: './try-it-out.js',
  });
  // A file the documents do not have is a 404, as public as they are: never a 401 asking for a key they do not need.
  routes.get(`${page}/*file`, (request: Request, _response: Response, next: unknown) =>
    (next as NextFunction)(new RouteNotFoundException(request.method, request.path)),
  );
}

/** An operation of the document, as whoever records what a request reached needs it. */
export interface DocumentedOperation {
  readonly operationId: string;
  /**
   * Whether a query parameter's name (decoded) is one of the operation's own: a name it declares,
   * or `name[…]` of one it declares as a deepObject (`metadata[erp_id]`).
   */
  readonly takesQueryParameter: (name: string) => boolean;
}

/**
 * The operation a route serves, by its method and its path as Express names it (`GET`,
 * `/v1/pets/:petId`; HEAD is GET's), with its query parameters, from the document: for whoever
 * records what a request reached.
 */
export function operationOf(document: OpenAPIObject): (method: string, route: string) => DocumentedOperation | null {
  const operations = new Map<string, DocumentedOperation>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      const query = (operation.parameters ?? []).filter(
        (parameter): parameter is ParameterObject => 'in' in parameter && parameter.in === 'query',
      );
      const names = new Set(query.map((parameter) => parameter.name));
      const objects = new Set(query.filter((parameter) => parameter.style === 'deepObject').map((parameter) => parameter.name));
      operations.set(`${method.toUpperCase()} ${API_PREFIX}${path.replace(/\{(\w+)\}/g, ':$1')}`, {
        operationId: operation.operationId,
        takesQueryParameter: (name) => names.has(name) || (objects.size > 0 && objects.has(/^([^[]*)\[[^\]]*\]$/.exec(name)?.[1] ?? '')),
      });
    }
  }
  return (method, route) => operations.get(`${method === 'HEAD' ? 'GET' : method} ${route}`) ?? null;
}
