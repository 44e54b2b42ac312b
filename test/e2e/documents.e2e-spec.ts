import { beforeAll, describe, expect, it } from '@jest/globals';
import yaml from 'js-yaml';
import { API_VERSION } from '../../src/config/api-version.js';
import { ERROR_CODES } from '../../src/errors/api-exception.js';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../src/events/event-types.js';
import { AUTH, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

type Json = Record<string, any>;

const OPERATIONS = [
  ['/pets', 'get', 'listPets', ['200', '304', '400', '401', '403', '412', '429', '500', '503'], ['pets:read']],
  ['/pets', 'post', 'createPet', ['201', '400', '401', '403', '409', '413', '422', '429', '500', '503'], ['pets:write']],
  ['/pets/{petId}', 'get', 'getPet', ['200', '304', '400', '401', '403', '404', '412', '429', '500', '503'], ['pets:read']],
  [
    '/pets/{petId}',
    'patch',
    'updatePet',
    ['200', '400', '401', '403', '404', '409', '412', '413', '422', '429', '500', '503'],
    ['pets:read', 'pets:write'],
  ],
  [
    '/pets/{petId}',
    'delete',
    'deletePet',
    ['204', '400', '401', '403', '404', '409', '412', '429', '500', '503'],
    ['pets:read', 'pets:write'],
  ],
] as const;

const STORE_OPERATIONS = [
  ['/store/orders', 'get', 'listOrders', ['200', '304', '400', '401', '403', '412', '429', '500', '503'], ['store:read']],
  ['/store/orders', 'post', 'placeOrder', ['201', '400', '401', '403', '404', '409', '413', '422', '429', '500', '503'], ['store:write']],
  ['/store/orders/{orderId}', 'get', 'getOrder', ['200', '304', '400', '401', '403', '404', '412', '429', '500', '503'], ['store:read']],
  [
    '/store/orders/{orderId}',
    'patch',
    'updateOrder',
    ['200', '400', '401', '403', '404', '409', '412', '413', '422', '429', '500', '503'],
    ['store:read', 'store:write'],
  ],
  [
    '/store/orders/{orderId}/cancel',
    'post',
    'cancelOrder',
    ['200', '400', '401', '403', '404', '409', '412', '413', '422', '429', '500', '503'],
    ['store:read', 'store:write'],
  ],
  ['/store/inventory', 'get', 'getInventory', ['200', '304', '400', '401', '403', '412', '429', '500', '503'], ['store:read']],
] as const;

const WEBHOOK_OPERATIONS = [
  [
    '/webhook-endpoints',
    'post',
    'createWebhookEndpoint',
    ['201', '400', '401', '403', '409', '413', '422', '429', '500', '503'],
    ['webhooks:write'],
  ],
  ['/webhook-endpoints', 'get', 'listWebhookEndpoints', ['200', '304', '400', '401', '403', '412', '429', '500', '503'], ['webhooks:read']],
  [
    '/webhook-endpoints/{endpointId}',
    'get',
    'getWebhookEndpoint',
    ['200', '304', '401', '403', '404', '412', '429', '500', '503'],
    ['webhooks:read'],
  ],
  [
    '/webhook-endpoints/{endpointId}',
    'delete',
    'deleteWebhookEndpoint',
    ['204', '400', '401', '403', '404', '412', '429', '500', '503'],
    ['webhooks:read', 'webhooks:write'],
  ],
  [
    '/webhook-endpoints/{endpointId}/disable',
    'post',
    'disableWebhookEndpoint',
    ['200', '400', '401', '403', '404', '412', '429', '500', '503'],
    ['webhooks:read', 'webhooks:write'],
  ],
  [
    '/webhook-endpoints/{endpointId}/enable',
    'post',
    'enableWebhookEndpoint',
    ['200', '400', '401', '403', '404', '412', '429', '500', '503'],
    ['webhooks:read', 'webhooks:write'],
  ],
  [
    '/webhook-endpoints/{endpointId}/rotate-secret',
    'post',
    'rotateWebhookSecret',
    ['200', '400', '401', '403', '404', '412', '429', '500', '503'],
    ['webhooks:read', 'webhooks:write'],
  ],
  [
    '/webhook-endpoints/{endpointId}/test',
    'post',
    'testWebhookEndpoint',
    ['202', '400', '401', '403', '404', '412', '429', '500', '503'],
    ['webhooks:read', 'webhooks:write'],
  ],
  [
    '/webhook-endpoints/{endpointId}/recover',
    'post',
    'recoverWebhookEndpoint',
    ['202', '400', '401', '403', '404', '412', '413', '429', '500', '503'],
    ['webhooks:read', 'webhooks:write'],
  ],
  ['/events', 'get', 'listEvents', ['200', '304', '400', '401', '403', '412', '429', '500', '503'], ['webhooks:read']],
  ['/events/{eventId}', 'get', 'getEvent', ['200', '304', '401', '403', '404', '412', '429', '500', '503'], ['webhooks:read']],
  [
    '/events/{eventId}/redeliver',
    'post',
    'redeliverEvent',
    ['202', '400', '401', '403', '404', '412', '413', '429', '500', '503'],
    ['webhooks:read', 'webhooks:write'],
  ],
] as const;

/** The sentence that ends an operation's description: the scopes it needs (a change of an existing resource: its read scope too). */
function neededScopes(scopes: readonly string[]): RegExp {
  const named = scopes.map((scope) => `\`${scope}\``);
  const sentence =
    named.length === 1
      ? `Needs an API key with the scope ${named[0]}.`
      : `Needs an API key with the scopes ${named.join(' and ')}: a change shows what it changes.`;
  return new RegExp(`${sentence.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

const REQUEST_OPERATIONS = [
  ['/requests', 'get', 'listRequests', ['200', '304', '400', '401', '403', '404', '412', '429', '500', '503'], ['requests:read']],
  ['/requests/{requestId}', 'get', 'getRequest', ['200', '304', '400', '401', '403', '404', '412', '429', '500', '503'], ['requests:read']],
] as const;

const ALL_OPERATIONS = [...OPERATIONS, ...STORE_OPERATIONS, ...WEBHOOK_OPERATIONS, ...REQUEST_OPERATIONS].map(
  ([path, method]) => [path, method] as const,
);

describe.each(DATABASE_KINDS)('the OpenAPI document on %s', (kind) => {
  const ctx = useApp(kind);
  let document: Json;
  beforeAll(async () => {
    document = (await ctx.http().get('/v1/openapi.json')).body;
  });

  it('is served as JSON at /v1/openapi.json without a key', async () => {
    const response = await ctx.http().get('/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body.openapi).toMatch(/^3\./);
    expect(response.body.info.version).toBe(API_VERSION);
  });

  it('is served as the same document in YAML at /v1/openapi.yaml without a key', async () => {
    const response = await ctx.http().get('/v1/openapi.yaml');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/yaml/);
    expect(yaml.load(response.text)).toEqual(document);
  });

  it('serves Swagger UI at /v1/docs/ without a key, and sends /v1/docs there, query kept, by a relative Location', async () => {
    const redirect = await ctx.http().get('/v1/docs?deepLinking=true');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('docs/?deepLinking=true');
    const page = await ctx.http().get('/v1/docs/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('swagger-ui');
    const init = await ctx.http().get('/v1/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('"operationId": "listPets"');
  });

  it('writes paths relative to its first server, a concrete URL ending in /v1 that a generated client calls as it is', () => {
    expect(Object.keys(document.paths).sort()).toEqual([
      '/events',
      '/events/{eventId}',
      '/events/{eventId}/redeliver',
      '/pets',
      '/pets/{petId}',
      '/requests',
      '/requests/{requestId}',
      '/sandboxes',
      '/sandboxes/{sandboxId}',
      '/store/inventory',
      '/store/orders',
      '/store/orders/{orderId}',
      '/store/orders/{orderId}/cancel',
      '/webhook-endpoints',
      '/webhook-endpoints/{endpointId}',
      '/webhook-endpoints/{endpointId}/disable',
      '/webhook-endpoints/{endpointId}/enable',
      '/webhook-endpoints/{endpointId}/recover',
      '/webhook-endpoints/{endpointId}/rotate-secret',
      '/webhook-endpoints/{endpointId}/test',
    ]);
    expect(document.servers).toEqual([{ url: 'http://127.0.0.1:3000/v1', description: expect.stringContaining('This server') }]);
  });

  it.each<[string, string, number, string, { path: string; body?: string; type?: string }]>([
    ['/pets', 'get', 400, 'VALIDATION_FAILED', { path: '/v1/pets?limit=0' }],
    ['/pets', 'post', 400, 'VALIDATION_FAILED', { path: '/v1/pets', body: '{"name":"Rex"}' }],
    ['/pets', 'post', 400, 'MALFORMED_JSON', { path: '/v1/pets', body: '{"name":' }],
    ['/pets', 'post', 400, 'UNSUPPORTED_MEDIA_TYPE', { path: '/v1/pets', body: 'name=Rex', type: 'text/plain' }],
    ['/pets', 'post', 413, 'PAYLOAD_TOO_LARGE', { path: '/v1/pets', body: `{"name":"${'x'.repeat(132_000)}"}` }],
    ['/pets/{petId}', 'get', 400, 'VALIDATION_FAILED', { path: '/v1/pets/abc' }],
    ['/pets/{petId}', 'get', 404, 'PET_NOT_FOUND', { path: '/v1/pets/42' }],
    ['/store/orders', 'get', 400, 'VALIDATION_FAILED', { path: '/v1/store/orders?status=lost' }],
    ['/store/orders', 'post', 400, 'VALIDATION_FAILED', { path: '/v1/store/orders', body: '{"petId":1,"quantity":0}' }],
    ['/store/orders', 'post', 404, 'PET_NOT_FOUND', { path: '/v1/store/orders', body: '{"petId":42,"quantity":1}' }],
    ['/store/orders/{orderId}', 'get', 400, 'VALIDATION_FAILED', { path: '/v1/store/orders/abc' }],
    ['/store/orders/{orderId}', 'get', 404, 'ORDER_NOT_FOUND', { path: '/v1/store/orders/42' }],
  ])('shows as the %s %s %i example of %s a message that operation really sends', async (path, method, status, code, sent) => {
    const documented = document.paths[path][method].responses[status].content['application/json'].examples[code].value;
    const request =
      sent.body === undefined
        ? ctx.http().get(sent.path)
        : ctx
            .http()
            .post(sent.path)
            .type(sent.type ?? 'application/json');
    const response = await request.set(AUTH).send(sent.body);
    expect({ status: response.status, message: response.body.message }).toEqual({ status, message: documented.message });
  });

  it('shows RateLimit examples of the default limit, as a service with defaults sends them', async () => {
    const { headers } = document.components;
    const sent = await ctx.http().get('/v1/pets').set(AUTH);
    expect(headers['RateLimit-Policy'].schema.example).toBe(sent.headers['ratelimit-policy']);
    expect(headers['RateLimit-Policy'].schema.example).toBe('"per-key";q=6000;w=60');
    expect(headers.RateLimit.schema.example).toBe('"per-key";r=5999;t=60');
  });

  it('describes exactly the Idempotency-Keys the service takes: 1 to 255 characters, bare or quoted', async () => {
    const [{ schema }] = document.paths['/pets'].post.parameters;
    const fits = (key: string) => key.length >= schema.minLength && key.length <= schema.maxLength && new RegExp(schema.pattern).test(key);
    // Each a key of its own: a quoted key is the same key as its bare content.
    const keys = ['k', 'a'.repeat(255), 'b'.repeat(256), 'c'.repeat(257), `"${'d'.repeat(255)}"`, `"${'e'.repeat(256)}"`, '""', '"', '"f'];
    for (const [i, key] of keys.entries()) {
      const response = await ctx
        .http()
        .post('/v1/pets')
        .set(AUTH)
        .set('Idempotency-Key', key)
        .send({ name: `Keyed ${i}`, categoryId: 1 });
      expect({ key: key.slice(0, 8), length: key.length, taken: response.status === 201 }).toEqual({
        key: key.slice(0, 8),
        length: key.length,
        taken: fits(key),
      });
    }
  });

  it('serves Swagger UI its Try it out script (this address first, a fresh Idempotency-Key), as a file the page may run', async () => {
    const page = await ctx.http().get('/v1/docs/');
    expect(page.text).toContain(`<script src='./try-it-out.js'></script>`);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const script = await ctx.http().get('/v1/docs/try-it-out.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^application\/javascript/);
    expect(script.text).toContain('window.location.origin');
    expect(script.text).toContain('requestInterceptor');
  });

  it.each(ALL_OPERATIONS)('shows under each error status of %s %s an example of its own code and status', (path, method) => {
    const responses: Json = document.paths[path][method].responses;
    for (const [status, response] of Object.entries<Json>(responses).filter(([s]) => Number(s) >= 400)) {
      const examples = Object.entries<Json>(response.content['application/json'].examples);
      expect(examples.length).toBeGreaterThan(0);
      for (const [name, { value }] of examples) {
        expect(value).toEqual({ code: name, message: expect.any(String), status: Number(status) });
        expect(ERROR_CODES).toContain(value.code);
        expect(response.description).toContain(value.code);
      }
    }
    expect(Object.keys(responses['401'].content['application/json'].examples).sort()).toEqual([
      'API_KEY_EXPIRED',
      'API_KEY_INVALID',
      'API_KEY_MISSING',
    ]);
    expect(Object.keys(responses['503'].content['application/json'].examples)).toEqual(['SERVICE_UNAVAILABLE']);
  });

  it('shows the not-found code of the thing each operation looks for', () => {
    const example = (path: string, method: string) =>
      Object.keys(document.paths[path][method].responses['404'].content['application/json'].examples);
    expect(example('/pets/{petId}', 'get')).toEqual(['PET_NOT_FOUND']);
    expect(example('/store/orders', 'post')).toEqual(['PET_NOT_FOUND']);
    expect(example('/store/orders/{orderId}', 'get')).toEqual(['ORDER_NOT_FOUND']);
  });

  it.each(ALL_OPERATIONS)('declares on every response of %s %s the headers the service sends on it', (path, method) => {
    const operation: Json = document.paths[path][method];
    for (const [status, response] of Object.entries<Json>(operation.responses)) {
      const headers = Object.keys(response.headers);
      expect(headers).toContain('X-Request-Id');
      if (status === '401') expect(headers).not.toContain('RateLimit');
      else expect(headers).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy', 'API-Key-Expires']));
      if (['409', '429', '503'].includes(status)) expect(headers).toContain('Retry-After');
    }
    expect(Object.keys(document.components.headers).sort()).toEqual(['API-Key-Expires', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id']);
  });

  it('is true to the headers it declares: real responses carry them', async () => {
    const sent = [
      await ctx.http().get('/v1/pets').set(AUTH),
      await ctx.http().get('/v1/pets/abc').set(AUTH),
      await ctx.http().get('/v1/pets/9007199254740991').set(AUTH),
      await ctx.http().post('/v1/pets').set(AUTH).set('Content-Type', 'application/json').send('{"name":'),
      await ctx.http().get('/v1/store/orders/1').set(AUTH),
    ];
    expect(sent.map((response) => response.status)).toEqual([200, 400, 404, 400, 404]);
    for (const response of sent) {
      expect(response.headers['x-request-id']).toMatch(/\S/);
      expect(response.headers['ratelimit-policy']).toMatch(/^"per-key";q=\d+;w=60$/);
      expect(response.headers.ratelimit).toMatch(/^"per-key";r=\d+;t=\d+$/);
    }
    const refused = await ctx.http().get('/v1/pets');
    expect(refused.status).toBe(401);
    expect(refused.headers['x-request-id']).toMatch(/\S/);
  });

  it('bounds every id by 2^53-1, the largest the service hands out or accepts', () => {
    const { Pet, Order, NewOrder } = document.components.schemas;
    const bounds = { type: 'integer', format: 'int64', minimum: 1, maximum: 9007199254740991 };
    for (const schema of [Pet.properties.id, Order.properties.id, Order.properties.petId, NewOrder.properties.petId])
      expect(schema).toMatchObject(bounds);
    expect(document.paths['/pets/{petId}'].get.parameters[0].schema).toEqual(bounds);
    expect(document.paths['/store/orders/{orderId}'].get.parameters[0].schema).toEqual(bounds);
  });

  it.each([...OPERATIONS, ...WEBHOOK_OPERATIONS, ...REQUEST_OPERATIONS])(
    'documents %s %s as %s with every response it gives',
    (path, method, operationId, statuses, scopes) => {
      const operation = document.paths[path][method];
      expect(operation.operationId).toBe(operationId);
      expect(Object.keys(operation.responses).sort()).toEqual([...statuses]);
      expect(operation['x-required-scopes']).toEqual([...scopes]);
      expect(operation.description).toMatch(neededScopes(scopes));
      const forbidden = operation.responses['403'];
      expect(forbidden.content['application/json'].examples.INSUFFICIENT_SCOPE.value).toEqual({
        code: 'INSUFFICIENT_SCOPE',
        message: `This API key does not hold ${scopes.length === 1 ? 'the scope' : 'the scopes'} ${scopes.join(' and ')}, which this operation needs.`,
        status: 403,
      });
      expect(forbidden.headers['WWW-Authenticate']).toBeDefined();
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        expect(operation.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
      expect(operation.security).toEqual([{ bearer: [] }]);
    },
  );

  it('puts every operation behind the bearer scheme', () => {
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearer: [] }]);
    for (const item of Object.values<Json>(document.paths)) {
      for (const operation of Object.values<Json>(item)) expect(operation.security).toEqual([{ bearer: [] }]);
    }
  });

  it('marks getPet deprecated and names its removal date, replacement and headers', () => {
    const getPet = document.paths['/pets/{petId}'].get;
    expect(getPet.deprecated).toBe(true);
    expect(Object.keys(getPet.responses['200'].headers).sort()).toEqual([
      'API-Key-Expires',
      'Accept-Patch',
      'Deprecation',
      'ETag',
      'Link',
      'RateLimit',
      'RateLimit-Policy',
      'Sunset',
      'X-Request-Id',
    ]);
    expect(getPet.description).toMatch(/5 December 2030/);
    expect(getPet.description).toMatch(/GET \/pets.*status/);
    expect(getPet.parameters).toEqual([
      expect.objectContaining({
        name: 'petId',
        in: 'path',
        required: true,
        schema: expect.objectContaining({ type: 'integer', format: 'int64' }),
      }),
      expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
      expect.objectContaining({ name: 'If-Match', in: 'header', required: false }),
    ]);
  });

  it('documents listPets parameters with their bounds, and the Link header of a page', () => {
    const listPets = document.paths['/pets'].get;
    expect(listPets.responses['200'].headers.Link.description).toMatch(/rel="next"/);
    const parameters = listPets.parameters;
    expect(parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'cursor', in: 'query', required: false, schema: expect.objectContaining({ type: 'string' }) }),
        expect.objectContaining({
          name: 'limit',
          in: 'query',
          required: false,
          schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100, default: 20 }),
        }),
        expect.objectContaining({ name: 'status', in: 'query', required: false, schema: { $ref: '#/components/schemas/PetStatus' } }),
      ]),
    );
  });

  it('names the schemas Pet, NewPet, PetStatus and Error, with int64 integers', () => {
    const { Pet, NewPet, PetStatus, Error } = document.components.schemas;
    expect(PetStatus).toEqual({ type: 'string', enum: ['available', 'pending', 'sold'] });
    // Which members Pet and NewPet require is their declaration's (PET): test/unit/resource-coverage.spec.ts holds them to it.
    expect(Pet.properties.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(Pet.properties.categoryId).toMatchObject({ type: 'integer', format: 'int64', minimum: 1, maximum: 9007199254740991 });
    expect(NewPet.properties.id).toBeUndefined();
    // The service's (1.6.0): answered last, never sent.
    expect(Pet.properties.livemode).toMatchObject({ type: 'boolean' });
    expect(Object.keys(Pet.properties).at(-1)).toBe('livemode');
    expect(NewPet.properties.livemode).toBeUndefined();
    expect(NewPet.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
    // A default behind a $ref of its own, so that every generator makes the field optional.
    expect(NewPet.properties.status).toEqual({ $ref: '#/components/schemas/NewPetStatus' });
    expect(document.components.schemas.NewPetStatus).toMatchObject({
      default: 'available',
      allOf: [{ $ref: '#/components/schemas/PetStatus' }],
    });
    expect(Error.required.sort()).toEqual(['code', 'message', 'status']);
    expect(Error.properties.requestId).toMatchObject({ type: 'string', maxLength: 128 });
    expect(Error.properties.status).toMatchObject({ type: 'integer' });
    expect(Error.properties.code.enum).toEqual([...ERROR_CODES]);
  });

  it('documents Idempotency-Key, Location and Idempotent-Replayed on createPet', () => {
    const createPet = document.paths['/pets'].post;
    expect(createPet.parameters).toEqual([
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
      // Refused on a create (1.5.1), and documented so.
      expect.objectContaining({ name: 'If-Match', in: 'header', required: false }),
      expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
    ]);
    expect(Object.keys(createPet.responses['201'].headers).sort()).toEqual([
      'API-Key-Expires',
      'ETag',
      'Idempotent-Replayed',
      'Location',
      'RateLimit',
      'RateLimit-Policy',
      'X-Request-Id',
    ]);
    expect(createPet.responses['409'].description).toMatch(/IDEMPOTENCY_KEY_IN_USE/);
    expect(createPet.responses['422'].description).toMatch(/IDEMPOTENCY_KEY_REUSED/);
  });

  it('documents 429 with Retry-After on every operation', () => {
    for (const [path, method] of OPERATIONS) {
      expect(Object.keys(document.paths[path][method].responses['429'].headers)).toContain('Retry-After');
    }
  });

  it('says that request bodies are strict', () => {
    expect(document.components.schemas.NewPet.additionalProperties).toBe(false);
    expect(document.components.schemas.NewOrder.additionalProperties).toBe(false);
  });

  it.each(STORE_OPERATIONS)(
    'documents %s %s as %s, experimental, with every response it gives',
    (path, method, operationId, statuses, scopes) => {
      const operation = document.paths[path][method];
      expect(operation.operationId).toBe(operationId);
      expect(operation['x-stability']).toBe('experimental');
      expect(operation.description).toMatch(/^Experimental: the shape of this operation may change/);
      expect(Object.keys(operation.responses).sort()).toEqual([...statuses]);
      expect(operation['x-required-scopes']).toEqual([...scopes]);
      expect(operation.description).toMatch(neededScopes(scopes));
      expect(operation.security).toEqual([{ bearer: [] }]);
    },
  );

  it('gives every path and query parameter but the cursor an example, as Try it out and contract testers send them', () => {
    const bare = ALL_OPERATIONS.flatMap(([path, method]) =>
      (document.paths[path][method].parameters ?? [])
        .filter((parameter: Json) => parameter.in !== 'header' && parameter.example === undefined)
        .map((parameter: Json) => `${method} ${path} ${parameter.name}`),
    );
    const listings = ALL_OPERATIONS.filter(([path, method]) =>
      document.paths[path][method].parameters?.some((parameter: Json) => parameter.name === 'cursor'),
    );
    expect(listings.length).toBeGreaterThan(3);
    // A cursor is not safe to send unasked: it leaves out the first items.
    expect(bare).toEqual(listings.map(([path, method]) => `${method} ${path} cursor`));
  });

  // A tool sends them unasked (Swagger UI fills them in): a shared Idempotency-Key makes every other write a 422, a made-up tag a 412.
  it('gives no header a client sends an example, nor the cursor one, in the parameter or its schema', () => {
    const exemplified = ALL_OPERATIONS.flatMap(([path, method]) =>
      (document.paths[path][method].parameters ?? [])
        .filter((parameter: Json) => parameter.in === 'header' || parameter.name === 'cursor')
        .filter(
          (parameter: Json) =>
            parameter.example !== undefined || parameter.examples !== undefined || parameter.schema?.example !== undefined,
        )
        .map((parameter: Json) => `${method} ${path} ${parameter.name}`),
    );
    expect(exemplified).toEqual([]);
  });

  it('documents ETag, If-None-Match and 304 on the reads, If-Match and 412 on the changes', () => {
    for (const [path, method] of [
      ['/pets', 'get'],
      ['/pets/{petId}', 'get'],
      ['/store/orders', 'get'],
      ['/store/orders/{orderId}', 'get'],
    ]) {
      const operation = document.paths[path][method];
      expect(operation.responses['200'].headers.ETag).toBeDefined();
      expect(operation.responses['304'].headers.ETag).toBeDefined();
      expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'If-None-Match', in: 'header' }));
    }
    for (const [path, method] of [
      ['/pets/{petId}', 'patch'],
      ['/pets/{petId}', 'delete'],
      ['/store/orders/{orderId}', 'patch'],
      ['/store/orders/{orderId}/cancel', 'post'],
    ]) {
      const operation = document.paths[path][method];
      expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'If-Match', in: 'header' }));
      expect(operation.responses['412'].headers.ETag).toBeDefined();
      expect(operation.responses['412'].content['application/json'].examples.PRECONDITION_FAILED).toBeDefined();
    }
  });

  it('leaves the pets operations without a stability marker', () => {
    for (const [path, method] of OPERATIONS) expect(document.paths[path][method]['x-stability']).toBeUndefined();
  });

  it('names the store schemas Order, NewOrder, OrderStatus and Inventory', () => {
    const { Order, NewOrder, OrderStatus, Inventory } = document.components.schemas;
    expect(OrderStatus).toEqual({ type: 'string', enum: ['placed', 'approved', 'delivered', 'cancelled'] });
    expect(Order.required.sort()).toEqual(['complete', 'id', 'livemode', 'metadata', 'petId', 'quantity', 'status']);
    expect(Order.properties.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(Order.properties.livemode).toMatchObject({ type: 'boolean' });
    expect(NewOrder.properties.livemode).toBeUndefined();
    expect(Order.properties.shipDate).toMatchObject({ type: 'string', format: 'date-time' });
    expect(NewOrder.required.sort()).toEqual(['petId', 'quantity']);
    expect(NewOrder.properties.quantity).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
    // complete belongs to delivery (1.5.0): no default, as the status decides it.
    expect(NewOrder.properties.complete).toMatchObject({ type: 'boolean' });
    expect(NewOrder.properties.complete.default).toBeUndefined();
    expect(NewOrder.properties.status).toEqual({ $ref: '#/components/schemas/NewOrderStatus' });
    expect(document.components.schemas.NewOrderStatus).toMatchObject({
      default: 'placed',
      allOf: [{ $ref: '#/components/schemas/PlaceableOrderStatus' }],
    });
    expect(Inventory.required.sort()).toEqual(['available', 'pending', 'sold']);
    expect(document.paths['/store/inventory'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Inventory',
    });
  });

  it('describes what an endpoint receives: a schema per event type, and the signed POST as a callback of createWebhookEndpoint', () => {
    const delivery = document.paths['/webhook-endpoints'].post.callbacks.event['{$request.body#/url}'].post;
    const body = delivery.requestBody.content['application/json'].schema;
    expect(Object.keys(body.discriminator.mapping).sort()).toEqual([...EVENT_TYPES, TEST_EVENT_TYPE].sort());
    for (const [type, ref] of Object.entries<string>(body.discriminator.mapping)) {
      const schema = document.components.schemas[ref.replace('#/components/schemas/', '')];
      expect(schema.properties.type).toEqual({ type: 'string', enum: [type] });
      expect(schema.required.sort()).toEqual(['apiVersion', 'createdAt', 'data', 'id', 'type']);
    }
    expect(document.components.schemas.PetCreatedEvent.properties.data.properties.object).toEqual({ $ref: '#/components/schemas/Pet' });
    expect(document.components.schemas.OrderPlacedEvent.properties.data.properties.object).toEqual({ $ref: '#/components/schemas/Order' });
    expect(delivery.parameters.map((header: Json) => [header.name, header.in, header.required])).toEqual([
      ['webhook-id', 'header', true],
      ['webhook-timestamp', 'header', true],
      ['webhook-signature', 'header', true],
    ]);
    expect(delivery.security).toEqual([]);
  });

  it('states the request that caused an event once, as EventCause; EventRequest, the deliveries’ name for it since 1.5.0, is it or null', () => {
    const { schemas } = document.components;
    expect(Object.keys(schemas.EventCause.properties)).toEqual(['id', 'idempotencyKey']);
    expect(schemas.EventRequest).toEqual({
      type: 'object',
      allOf: [{ $ref: '#/components/schemas/EventCause' }],
      nullable: true,
      description: expect.any(String),
    });
    const requestOf = Object.entries<Json>(schemas).filter(([, schema]) => schema.properties?.request);
    const events = requestOf.filter(([name]) => name.startsWith('Event'));
    const deliveries = requestOf.filter(([name]) => !name.startsWith('Event'));
    expect(events.map(([name]) => name).sort()).toEqual(['Event', 'EventWithDeliveries']);
    expect(deliveries).toHaveLength(EVENT_TYPES.length + 1);
    for (const [, schema] of events) expect(schema.properties.request.allOf).toEqual([{ $ref: '#/components/schemas/EventCause' }]);
    for (const [, schema] of deliveries) expect(schema.properties.request).toEqual({ $ref: '#/components/schemas/EventRequest' });
  });

  it('uses the Pet and NewPet schemas for bodies', () => {
    const createPet = document.paths['/pets'].post;
    expect(createPet.requestBody).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
    });
    expect(createPet.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Pet' });
    expect(document.paths['/pets'].get.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Pet' },
    });
  });
});

describe('the OpenAPI document of a service on another host and port', () => {
  const ctx = useApp('sqlite', { HOST: '127.0.0.2', PORT: '4000' });

  it('names that address as its server', async () => {
    expect((await ctx.http().get('/v1/openapi.json')).body.servers.map((server: Json) => server.url)).toEqual(['http://127.0.0.2:4000/v1']);
  });
});

describe('the OpenAPI document with configured servers', () => {
  const ctx = useApp('sqlite', {
    PUBLIC_BASE_URL: 'https://api.petstore.example',
    STAGING_BASE_URL: 'https://staging.petstore.example/v1/',
  });

  it('lists production and staging, both ending in /v1', async () => {
    const document = (await ctx.http().get('/v1/openapi.json')).body;
    expect(document.servers).toEqual([
      { url: 'https://api.petstore.example/v1', description: 'Production' },
      { url: 'https://staging.petstore.example/v1', description: 'Staging' },
    ]);
  });
});
