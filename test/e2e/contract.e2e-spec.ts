import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { SDK_ERROR_CODES_FILE, sdkErrorCodesModule } from '../../scripts/sdk-error-codes.js';
import { freePort } from './support/free-port.js';
import { ServiceProcess } from './support/service-process.js';
import { AUTH, useApp } from './support/test-app.js';

const run = promisify(execFile);
const bin = (name: string) => resolve('node_modules/.bin', name);

describe('the committed document', () => {
  const ctx = useApp('sqlite');
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-openapi-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('is what the running service serves', async () => {
    const committed = JSON.parse(await readFile('openapi.json', 'utf8'));
    expect((await ctx.http().get('/v1/openapi.json')).body).toEqual(committed);
  });

  it('is what `npm run openapi` writes, without a server or a reachable database', async () => {
    const out = join(directory, 'openapi.json');
    // An unreachable database on purpose: the generator must not need one.
    await run(process.execPath, ['dist/src/cli/openapi.js', '--out', out], {
      env: { ...process.env, DATABASE_URL: 'mysql://nobody@127.0.0.1:1/none' },
    });
    expect(await readFile(out, 'utf8')).toBe(await readFile('openapi.json', 'utf8'));
  });

  it('has the types of the official TypeScript SDK that `npm run openapi` writes from it', async () => {
    const out = join(directory, 'openapi.ts');
    await run(bin('openapi-typescript'), ['openapi.json', '--output', out]);
    expect(await readFile(out, 'utf8')).toBe(await readFile('clients/typescript/src/openapi.ts', 'utf8'));
  });

  it("has the SDK's codes by status that `npm run openapi` writes from it, every code of the document under its status", async () => {
    const committed = JSON.parse(await readFile('openapi.json', 'utf8'));
    expect(await readFile(SDK_ERROR_CODES_FILE, 'utf8')).toBe(sdkErrorCodesModule(committed));
    const byStatus: Record<string, string[]> = committed.components.schemas.Error['x-codes-by-status'];
    expect(Object.values(byStatus).flat().sort()).toEqual([...committed.components.schemas.Error.properties.code.enum].sort());
    // Each operation's error examples stand under the status the list gives their code.
    const operations = Object.values(committed.paths).flatMap((item: any) => Object.values(item)) as any[];
    const examples = operations.flatMap((operation) =>
      Object.entries(operation.responses).flatMap(([status, response]: [string, any]) =>
        Object.keys(response.content?.['application/json']?.examples ?? {}).map((code) => ({ code, status })),
      ),
    );
    expect(examples.length).toBeGreaterThan(20);
    for (const { code, status } of examples)
      expect({ code, status, listed: byStatus[status]?.includes(code) }).toEqual({ code, status, listed: true });
  });

  it('passes the Redocly linter with no error and no warning', async () => {
    const { stdout } = await run(bin('redocly'), ['lint', 'openapi.json', '--format=json'], { maxBuffer: 16 << 20 });
    const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("passes Spectral's spectral:oas rules with no finding of any severity", async () => {
    const { stdout } = await run(bin('spectral'), ['lint', 'openapi.json', '--ruleset', '.spectral.yaml', '--format=json', '--quiet'], {
      maxBuffer: 16 << 20,
    });
    expect(JSON.parse(stdout)).toEqual([]);
  });
});

/** What every response through Prism must not be: Prism's own report of a violation. */
function expectNoViolation(response: Response, what: string): void {
  expect({ what, violations: response.headers.get('sl-violations'), type: response.headers.get('content-type') }).toEqual({
    what,
    violations: null,
    type: expect.stringMatching(/^application\/json/),
  });
}

describe('traffic through Stoplight Prism validating against the document', () => {
  const ctx = useApp('sqlite');
  let prism: ServiceProcess;
  let base: string;

  beforeAll(async () => {
    const { port } = ctx.app.getHttpServer().address() as AddressInfo;
    const prismPort = await freePort();
    prism = new ServiceProcess(
      { ...process.env } as Record<string, string>,
      process.cwd(),
      resolve('node_modules/@stoplight/prism-cli/dist/index.js'),
      ['proxy', 'openapi.json', `http://127.0.0.1:${port}/v1`, '--errors', '--host', '127.0.0.1', '--port', String(prismPort)],
    );
    await prism.waitForOutput(/Prism is listening/, 60_000);
    base = `http://127.0.0.1:${prismPort}`;
  });
  afterAll(async () => {
    await prism?.stop();
  });

  const send = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { ...AUTH, 'Content-Type': 'application/json', ...init.headers } });

  it('finds every response of every documented outcome valid', async () => {
    const outcomes: [string, Response][] = [];
    const check = async (what: string, response: Promise<Response>, status: number) => {
      const answered = await response;
      expect({ what, status: answered.status }).toEqual({ what, status });
      outcomes.push([what, answered]);
      return answered;
    };

    await check('an empty list', send('/pets'), 200);
    const created = (await (
      await check('a create', send('/pets', { method: 'POST', body: '{"name":"Prism","categoryId":1}' }), 201)
    ).json()) as { id: number };
    for (let i = 0; i < 3; i++) await send('/pets', { method: 'POST', body: `{"name":"More ${i}","categoryId":2,"status":"sold"}` });
    const keyed = { method: 'POST', body: '{"name":"Keyed","categoryId":3}', headers: { 'Idempotency-Key': 'prism-1' } };
    await check('a keyed create', send('/pets', keyed), 201);
    await check('its replay', send('/pets', keyed), 201);
    await check('the key reused', send('/pets', { ...keyed, body: '{"name":"Other","categoryId":3}' }), 422);
    const page = await check('a first page', send('/pets?limit=2'), 200);
    const next = new URL(/<([^>]+)>; rel="next"/.exec(page.headers.get('link')!)![1]);
    await check('the next page', send(`/pets${next.search}`), 200);
    await check('a filtered list', send('/pets?status=sold&limit=100'), 200);
    await check('a broken cursor', send('/pets?cursor=broken'), 400);
    await check('a pet', send(`/pets/${created.id}`), 200);
    await check('no such pet', send('/pets/987654321'), 404);
    await check('an unknown key', send('/pets', { headers: { Authorization: 'Bearer unknown' } }), 401);
    await check('no orders yet', send('/store/orders'), 200);
    const order = (await (
      await check(
        'an order',
        send('/store/orders', { method: 'POST', body: `{"petId":${created.id},"quantity":2,"shipDate":"2026-12-01T10:00:00Z"}` }),
        201,
      )
    ).json()) as { id: number };
    await check('an order for no pet', send('/store/orders', { method: 'POST', body: '{"petId":987654321,"quantity":1}' }), 404);
    await send('/store/orders', { method: 'POST', body: `{"petId":${created.id},"quantity":3,"status":"approved","complete":true}` });
    await check('a page of orders', send('/store/orders?limit=1'), 200);
    await check('approved orders', send('/store/orders?status=approved'), 200);
    await check('the order', send(`/store/orders/${order.id}`), 200);
    await check('no such order', send('/store/orders/987654321'), 404);
    await check('the inventory', send('/store/inventory'), 200);

    for (const [what, response] of outcomes) expectNoViolation(response, what);
  });
});
