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
    executions: { item: { name: string }; response: { code: number } }[];
  };
}

/**
 * The collections in clients/http/ as an integrator runs them against a started service, from
 * `baseUrl` and `apiKey` alone: the Postman collection with newman (every request and test green),
 * and the .http files as VS Code's REST Client and JetBrains' HTTP Client run them.
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

  it.each([1, 2])('the Postman collection runs green with newman, run %i (a fresh Idempotency-Key each run)', async () => {
    const report = join(directory, `newman-${Date.now()}.json`);
    const args = [
      'run',
      'clients/http/petstore.postman_collection.json',
      '--env-var',
      `baseUrl=${baseUrl}`,
      '--env-var',
      `apiKey=${TEST_API_KEY}`,
      '--env-var',
      `webhookUrl=${webhookUrl}`,
    ];
    await run(resolve('node_modules/.bin/newman'), [...args, '--reporters', 'json', '--reporter-json-export', report]);
    const { run: outcome } = JSON.parse(await readFile(report, 'utf8')) as NewmanReport;
    expect(outcome.failures.map(({ source, error }) => `${source.name}: ${error.message}`)).toEqual([]);
    expect(outcome.stats.requests).toEqual({ total: 22, failed: 0, pending: 0 });
    expect(outcome.stats.assertions.failed).toBe(0);
    expect(outcome.executions.map(({ response }) => response.code)).toEqual([
      201, 201, 200, 200, 200, 200, 201, 200, 200, 200, 201, 200, 202, 200, 200, 202, 200, 202, 200, 200, 204, 401,
    ]);
  });

  it.each([
    ['petstore.http', 'rest-client'],
    ['petstore.jetbrains.http', 'jetbrains'],
  ] as const)('%s runs every request green as %s runs it', async (file, dialect) => {
    const outcomes = await runHttpFile(await readFile(`clients/http/${file}`, 'utf8'), dialect, {
      baseUrl,
      apiKey: TEST_API_KEY,
      webhookUrl,
    });
    expect(outcomes.length).toBeGreaterThanOrEqual(20);
    expect(outcomes.map(({ title }) => title)).toContain('Remove it (deleteWebhookEndpoint)');
    expect(outcomes.filter(({ status }) => status < 200 || status >= 300)).toEqual([]);
  });
});
