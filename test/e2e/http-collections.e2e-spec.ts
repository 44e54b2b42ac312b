import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runHttpFile } from './support/http-file.js';
import { TEST_API_KEY, useApp } from './support/test-app.js';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.js';
import { DATABASE_KINDS } from './support/test-database.js';

const run = promisify(execFile);

interface NewmanReport {
  run: {
    stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    failures: { error: { message: string }; source: { name: string } }[];
    executions: { item: { name: string }; response: { code: number; stream: { data: number[] } } }[];
  };
}

/**
 * The collections in clients/http/ as an integrator runs them against a started service, from
 * `baseUrl` and `apiKey` alone: the Postman collection with newman (every request and test green),
 * and the .http files as VS Code's REST Client and JetBrains' HTTP Client run them. Each with a
 * receiver that answers, and as shipped: their own `webhookUrl`, which the service cannot reach, as
 * on an integrator's first run.
 */
describe.each(DATABASE_KINDS)('the request collections on %s', (kind) => {
  // The webhook endpoint the collections add is a receiver on 127.0.0.1, over http.
  const ctx = useApp(kind, { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' });
  let baseUrl: string;
  let directory: string;
  let receiver: WebhookReceiver;
  let webhookUrl: string;
  beforeAll(async () => {
    baseUrl = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}/v1`;
    directory = await mkdtemp(join(tmpdir(), 'petstore-collections-'));
    receiver = await startReceiver();
    webhookUrl = `${receiver.url}/collections`;
  });
  afterAll(async () => {
    await receiver.close();
    await rm(directory, { recursive: true, force: true });
  });

  /** Runs the Postman collection with newman, `webhookUrl` as given or (undefined) the collection's own. */
  async function runCollection(webhookUrlGiven: string | undefined): Promise<NewmanReport['run']> {
    const report = join(directory, `newman-${Date.now()}.json`);
    const args = [
      'run',
      'clients/http/petstore.postman_collection.json',
      '--env-var',
      `baseUrl=${baseUrl}`,
      '--env-var',
      `apiKey=${TEST_API_KEY}`,
    ];
    if (webhookUrlGiven !== undefined) args.push('--env-var', `webhookUrl=${webhookUrlGiven}`);
    // newman exits 1 on a failed test; the report says which, so it is read whatever the exit code.
    await run(resolve('node_modules/.bin/newman'), [...args, '--reporters', 'json', '--reporter-json-export', report]).catch(
      () => undefined,
    );
    const { run: outcome } = JSON.parse(await readFile(report, 'utf8')) as NewmanReport;
    expect(outcome.failures.map(({ source, error }) => `${source.name}: ${error.message}`)).toEqual([]);
    expect(outcome.stats.requests).toEqual({ total: 35, failed: 0, pending: 0 });
    expect(outcome.stats.assertions.failed).toBe(0);
    // Metadata: a pet added with it 201, the listing of its pair 200. The lifecycle: getPet 200, updatePet 200 (If-Match: its ETag),
    // placeOrder 201, listOrders and getOrder 200, getOrder 304 (If-None-Match), updateOrder and cancelOrder 200 (If-Match),
    // deletePet 204 (If-Match: the ETag of the pending pet's 201). The request log: a create refused 400, its entry by its
    // request id and the listing of refused creates, 200. A sandbox: made 201, its (empty) pets listed with its key 200, deleted 202.
    expect(outcome.executions.map(({ response }) => response.code)).toEqual([
      201, 201, 200, 200, 200, 201, 200, 200, 200, 201, 200, 200, 304, 200, 200, 204, 200, 201, 200, 202, 200, 200, 202, 200, 202, 200, 200,
      204, 400, 200, 200, 401, 201, 200, 202,
    ]);
    return outcome;
  }

  it.each([1, 2])('the Postman collection runs green with newman, run %i (a fresh Idempotency-Key each run)', async () => {
    await runCollection(webhookUrl);
  });

  it('the Postman collection runs green as shipped, its webhookUrl a receiver the service cannot reach', async () => {
    const outcome = await runCollection(undefined);
    // The test event's delivery is still pending (its first attempt found no receiver), so nothing was queued again.
    const redeliver = outcome.executions.find(({ item }) => item.name === 'Send it again (redeliverEvent)')!;
    expect(JSON.parse(Buffer.from(redeliver.response.stream.data).toString())).toEqual({ queued: 0 });
  });

  it.each([
    ['petstore.http', 'rest-client', 'a live receiver'],
    ['petstore.jetbrains.http', 'jetbrains', 'a live receiver'],
    ['petstore.http', 'rest-client', 'its own unreachable receiver'],
    ['petstore.jetbrains.http', 'jetbrains', 'its own unreachable receiver'],
  ] as const)('%s runs every request green as %s runs it, with %s', async (file, dialect, receiving) => {
    const outcomes = await runHttpFile(await readFile(`clients/http/${file}`, 'utf8'), dialect, {
      baseUrl,
      apiKey: TEST_API_KEY,
      ...(receiving === 'a live receiver' ? { webhookUrl } : {}),
    });
    expect(outcomes.length).toBeGreaterThanOrEqual(25);
    const titles = outcomes.map(({ title }) => title);
    expect(titles).toContain('Remove it (deleteWebhookEndpoint)');
    for (const operation of [
      '(updatePet',
      '(updateOrder, If-Match)',
      '(cancelOrder, If-Match',
      '(deletePet, If-Match',
      '(listPets, metadata[',
    ])
      expect(titles.filter((title) => title.includes(operation))).toHaveLength(1);
    // A sandbox made, its pets listed with its key, and deleted: the last three, in that order.
    expect(outcomes.slice(-3).map(({ title, status }) => [title.slice(0, title.indexOf(' (')), status])).toEqual([
      ['Make a sandbox for your tests', 201],
      ["List the sandbox's pets with its key", 200],
      ['Delete the sandbox', 202],
    ]);
    // The listing of the pair the tagged pet was given (new on every run) is that pet alone.
    const filtered = outcomes.find(({ title }) => title.includes('(listPets, metadata['))!;
    expect(filtered.url).toMatch(/\/pets\?metadata\[erp_id\]=[0-9a-f-]{36}$/);
    // Every request green, each change held by If-Match to the ETag an earlier answer carried; the conditional read is a 304,
    // the failure the request log then finds a 400.
    expect(outcomes.filter(({ status }) => status < 200 || status >= 300)).toEqual([
      { title: expect.stringContaining('(getOrder, If-None-Match): 304 Not Modified'), url: expect.any(String), status: 304 },
      { title: expect.stringContaining('A request that fails (createPet, categoryId 0)'), url: expect.any(String), status: 400 },
    ]);
    const found = outcomes.find(({ title }) => title.includes('(getRequest)'))!;
    expect(found).toEqual({ title: expect.any(String), url: expect.stringMatching(/\/requests\/[0-9a-f-]{36}$/), status: 200 });
  });
});
