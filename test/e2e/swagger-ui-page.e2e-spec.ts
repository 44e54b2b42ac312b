import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ServiceProcess, sqliteServiceIn } from './support/service-process.js';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

const run = promisify(execFile);
const API_KEY = 'untouched-e2e-key';

/** The files Swagger UI's page loads from beside it (its relative href and src), as a browser reads them off the page. */
function assetsOf(page: string): string[] {
  const named = [...page.matchAll(/(?:href|src)=["']\.?\/?([^"':/?#]+)["']/g)].map((match) => match[1]);
  return [...new Set(named)];
}

/**
 * A folder on the file system of this checkout: its node_modules can be copied there as hard links
 * (a second or two), which `npm ci` may then delete as it deletes a real one.
 */
async function besideTheCheckout(): Promise<string> {
  const temporary = tmpdir();
  if ((await stat(temporary)).dev === (await stat('node_modules')).dev) return temporary;
  await mkdir('.test-logs', { recursive: true });
  return resolve('.test-logs');
}

describe('Swagger UI’s files', () => {
  const ctx = useApp('sqlite');

  it('serves each file the page names, with a strong ETag a browser revalidates with (304)', async () => {
    const page = await ctx.http().get('/v1/docs/');
    const assets = assetsOf(page.text);
    expect(assets).toEqual(
      expect.arrayContaining([
        'swagger-ui.css',
        'swagger-ui-bundle.js',
        'swagger-ui-standalone-preset.js',
        'swagger-ui-init.js',
        'try-it-out.js',
      ]),
    );
    for (const asset of assets) {
      const answer = await ctx.http().get(`/v1/docs/${asset}`);
      expect({ asset, status: answer.status }).toEqual({ asset, status: 200 });
      expect(answer.headers['content-type']).toMatch(/^(text\/css|(application|text)\/javascript|image\/png)/);
    }
    const bundle = await ctx.http().get('/v1/docs/swagger-ui-bundle.js');
    expect(bundle.headers.etag).toMatch(/^"[\w-]+"$/);
    const again = await ctx.http().get('/v1/docs/swagger-ui-bundle.js').set('If-None-Match', bundle.headers.etag);
    expect(again.status).toBe(304);
  });

  it.each(['/v1/docs/no-such-file.js', '/v1/docs/swagger-ui.css.missing', '/v1/docs/docs/no-such-file.css', '/v1/docs/a/b/c.png'])(
    'answers a file the documents do not have, %s, 404 ROUTE_NOT_FOUND without a key: never a 401 asking for one they do not need',
    async (path) => {
      expectError(await ctx.http().get(path), 404, 'ROUTE_NOT_FOUND');
      expectError(await ctx.http().get(path).set(AUTH), 404, 'ROUTE_NOT_FOUND');
    },
  );
});

type Json = Record<string, any>;

/**
 * The JSON body Swagger UI's Try it out fills in for an operation: the first of its request body's
 * examples, else its example, else an object of its schema's properties that have an example.
 */
function bodyTryItOutSends(document: Json, path: string, method: string): unknown {
  const media = document.paths[path][method].requestBody.content['application/json'];
  if (media.examples) return (Object.values(media.examples)[0] as { value: unknown }).value;
  if (media.example !== undefined) return media.example;
  const schema = document.components.schemas[media.schema.$ref.replace('#/components/schemas/', '')];
  const examples = Object.entries<Json>(schema.properties ?? {}).filter(([, property]) => property.example !== undefined);
  return Object.fromEntries(examples.map(([name, property]) => [name, property.example]));
}

describe.each(DATABASE_KINDS)('Swagger UI’s examples on %s', (kind) => {
  const ctx = useApp(kind);

  it('sends redeliverEvent with the body it fills in, once the path names a real event: 202, to every subscribed endpoint', async () => {
    const document = (await ctx.http().get('/v1/openapi.json')).body;
    const body = bodyTryItOutSends(document, '/events/{eventId}/redeliver', 'post');
    await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Redelivered', categoryId: 1 }).expect(201);
    const [event] = (await ctx.http().get('/v1/events?limit=1').set(AUTH).expect(200)).body;
    const redelivered = await ctx
      .http()
      .post(`/v1/events/${event.id}/redeliver`)
      .set(AUTH)
      .send(body as object);
    expect({ status: redelivered.status, body: redelivered.body }).toEqual({ status: 202, body: { queued: 0 } });
  });
});

/**
 * The README's test command beside a service started as the README says: `npm ci` deletes
 * node_modules and installs it again, `nest build` deletes dist/ and writes it again, while the
 * service runs from both. Here the service runs from a copy of them (node_modules as hard links),
 * which is deleted as soon as it listens, before any request: what it answers then, it answers
 * from what it read at start.
 */
describe('a service whose node_modules and dist/ are deleted under it once it listens', () => {
  let directory: string;
  let service: ServiceProcess;
  let base: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(await besideTheCheckout(), 'petstore-untouched-'));
    await cp('dist', join(directory, 'dist'), { recursive: true });
    await copyFile('package.json', join(directory, 'package.json'));
    await run('cp', ['-al', resolve('node_modules'), join(directory, 'node_modules')]);
    service = sqliteServiceIn(directory, API_KEY, join(directory, 'dist/src/main.js'));
    base = await service.listening();
    await rm(join(directory, 'node_modules'), { recursive: true, force: true });
    await rm(join(directory, 'dist'), { recursive: true, force: true });
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('still serves Swagger UI, each file of its page, the documents and the API; a file it does not have is a 404', async () => {
    const page = await fetch(`${base}/v1/docs/`);
    expect(page.status).toBe(200);
    const answered: Record<string, number> = {};
    for (const asset of assetsOf(await page.text())) answered[asset] = (await fetch(`${base}/v1/docs/${asset}`)).status;
    expect(Object.values(answered).length).toBeGreaterThanOrEqual(5);
    expect(answered).toEqual(Object.fromEntries(Object.keys(answered).map((asset) => [asset, 200])));
    for (const document of ['/v1/openapi.json', '/v1/openapi.yaml']) expect((await fetch(`${base}${document}`)).status).toBe(200);

    // The API's paths, each as a request of its own kind would take it: what any of them loaded on first use is gone.
    const key = { Authorization: `Bearer ${API_KEY}` };
    const json = { ...key, 'Content-Type': 'application/json' };
    const call = async (path: string, init: RequestInit = {}) => {
      const answer = await fetch(`${base}${path}`, init);
      return { path, status: answer.status, body: (answer.status === 204 ? undefined : await answer.json()) as any };
    };
    const pet = await call('/v1/pets', {
      method: 'POST',
      headers: { ...json, 'Idempotency-Key': 'untouched-1' },
      body: JSON.stringify({ name: 'Untouched', categoryId: 1 }),
    });
    expect(pet).toMatchObject({ status: 201, body: { name: 'Untouched', status: 'available' } });
    const gzipped = gzipSync(JSON.stringify({ name: 'Zipped', categoryId: 2, metadata: { erp_id: 'A-17' } }));
    expect(await call('/v1/pets', { method: 'POST', headers: { ...json, 'Content-Encoding': 'gzip' }, body: gzipped })).toMatchObject({
      status: 201,
    });
    const answers = [
      await call(`/v1/pets/${pet.body.id}`, {
        method: 'PATCH',
        headers: { ...key, 'Content-Type': 'application/merge-patch+json' },
        body: '{"name":"Still here"}',
      }),
      await call('/v1/store/orders', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ petId: pet.body.id, quantity: 1, shipDate: '2026-12-01T09:30:00+01:00' }),
      }),
      await call('/v1/pets?metadata[erp_id]=A-17&limit=5', { headers: key }),
      await call('/v1/store/inventory', { headers: key }),
      await call('/v1/pets', { method: 'POST', headers: json, body: '{"name": "", "categoryId": 0}' }),
      await call('/v1/pets', { method: 'POST', headers: json, body: '{"name":' }),
      await call('/v1/pets/987654321', { headers: key }),
      await call('/v1/pets'),
      await call('/health/ready'),
    ];
    expect(answers.map(({ path, status, body }) => ({ path, status, code: body?.code }))).toEqual([
      { path: `/v1/pets/${pet.body.id}`, status: 200, code: undefined },
      { path: '/v1/store/orders', status: 201, code: undefined },
      { path: '/v1/pets?metadata[erp_id]=A-17&limit=5', status: 200, code: undefined },
      { path: '/v1/store/inventory', status: 200, code: undefined },
      { path: '/v1/pets', status: 400, code: 'VALIDATION_FAILED' },
      { path: '/v1/pets', status: 400, code: 'MALFORMED_JSON' },
      { path: '/v1/pets/987654321', status: 404, code: 'PET_NOT_FOUND' },
      { path: '/v1/pets', status: 401, code: 'API_KEY_MISSING' },
      { path: '/health/ready', status: 200, code: undefined },
    ]);
    // The request log's entries, written in batches off the requests' path.
    let logged: { status: number; body: { operation?: string }[] } = { status: 0, body: [] };
    for (let waited = 0; logged.body.length < 4 && waited < 5_000; waited += 100) {
      logged = await call('/v1/requests?limit=50', { headers: key });
      await new Promise((wait) => setTimeout(wait, 100));
    }
    expect(logged.body.map(({ operation }) => operation)).toEqual(expect.arrayContaining(['createPet', 'updatePet', 'placeOrder']));

    const missing = await fetch(`${base}/v1/docs/swagger-ui.js.map`);
    expect({ status: missing.status, body: await missing.json() }).toEqual({
      status: 404,
      body: expect.objectContaining({ code: 'ROUTE_NOT_FOUND' }),
    });
  }, 60_000);
});
