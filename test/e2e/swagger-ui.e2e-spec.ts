import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CHROMIUM_PROBE_VARIABLE, chromiumPath } from './support/global-setup.js';
import { startApp, TEST_API_KEY } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// In a real browser; without Chromium (bash scripts/chromium.sh) the suite says so, and under CI fails.
const BROWSERS = process.env[CHROMIUM_PROBE_VARIABLE] === 'available' ? ['chromium'] : [];

/** A reverse proxy that serves the service under `prefix` (as a gateway mounting it at /petstore would). */
function reverseProxy(target: number, prefix: string): Promise<Server> {
  const proxy = createServer((incoming, outgoing) => {
    const path = incoming.url!.startsWith(prefix) ? incoming.url!.slice(prefix.length) : incoming.url!;
    const upstream = forward({ host: '127.0.0.1', port: target, path, method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  return new Promise((listening) => proxy.listen(0, '127.0.0.1', () => listening(proxy)));
}

/** What Try it out showed for one operation: the status of the live response. */
async function tryItOut(page: Page, operationId: string, tag: string): Promise<string> {
  const operation = `#operations-${tag}-${operationId}`;
  await page.click(`${operation} .opblock-summary`);
  await page.waitForSelector(`${operation} .try-out__btn`);
  await page.click(`${operation} .try-out__btn`);
  await page.click(`${operation} .execute`);
  await page.waitForSelector(`${operation} .live-responses-table tbody .response-col_status`, { timeout: 15_000 });
  return page.$eval(`${operation} .live-responses-table tbody .response-col_status`, (cell) => cell.textContent!.trim());
}

/** Opens Swagger UI at `url`, authorizes with the key, and runs listPets and createPet with Try it out. */
async function runInSwaggerUi(browser: Browser, url: string) {
  const page = await browser.newPage();
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Failed to fetch/i.test(message.text())) blocked.push(message.text());
  });
  try {
    await page.goto(url, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.swagger-ui .auth-wrapper .authorize');
    const servers = await page.$$eval('.servers select option', (options) => options.map((option) => option.textContent!.trim()));
    await page.click('.swagger-ui .auth-wrapper .authorize');
    await page.waitForSelector('.auth-container input');
    await page.type('.auth-container input', TEST_API_KEY);
    await page.click('.auth-btn-wrapper .authorize');
    await page.click('.auth-btn-wrapper .btn-done');
    const listPets = await tryItOut(page, 'listPets', 'pets');
    const createPet = await tryItOut(page, 'createPet', 'pets');
    return { servers, listPets, createPet, blocked };
  } finally {
    await page.close();
  }
}

/**
 * Swagger UI's Try it out, in Chromium: it works from whatever address the page was opened at, the
 * page's Content-Security-Policy (connect-src 'self') kept, the configured servers still offered.
 */
describe.each(BROWSERS)('Swagger UI in %s', () => {
  let browser: Browser;
  let userDataDir: string;
  beforeAll(async () => {
    userDataDir = await mkdtemp(join(tmpdir(), 'petstore-chromium-'));
    browser = await puppeteer.launch({
      executablePath: chromiumPath(),
      userDataDir,
      // As root, and with no network but loopback: nothing in the background reaching out.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await rm(userDataDir, { recursive: true, force: true });
  });

  const PUBLIC = { PUBLIC_BASE_URL: 'https://pets.example.net/v1', STAGING_BASE_URL: 'https://staging.pets.example.net/v1' };
  // [where, the service's environment, the path a reverse proxy in front mounts it at (none: no proxy)]
  describe.each([
    ['at 127.0.0.1, not localhost', {}, undefined],
    ['behind a reverse proxy that mounts it at /petstore, without PUBLIC_BASE_URL', {}, '/petstore'],
    ['on an internal address while PUBLIC_BASE_URL and STAGING_BASE_URL name others', PUBLIC, undefined],
    ['behind a path-preserving reverse proxy while PUBLIC_BASE_URL and STAGING_BASE_URL name others', PUBLIC, ''],
  ])('opened %s', (_, env: Record<string, string>, prefix: string | undefined) => {
    let database: TestDatabase;
    let app: NestExpressApplication;
    let proxy: Server | undefined;
    let origin: string;
    beforeAll(async () => {
      database = await createTestDatabase('sqlite');
      app = await startApp(database, env);
      let port = (app.getHttpServer().address() as AddressInfo).port;
      if (prefix !== undefined) {
        proxy = await reverseProxy(port, prefix);
        port = (proxy.address() as AddressInfo).port;
      }
      origin = `http://127.0.0.1:${port}${prefix ?? ''}`;
    });
    afterAll(async () => {
      proxy?.close();
      await app?.close();
      await database?.drop();
    });

    // /v1/docs is the address the start-up line and the README give; /v1/docs/ is where the page's assets resolve.
    it.each(['/v1/docs', '/v1/docs/'])(
      'at %s, authorizes with a key and runs listPets and createPet with Try it out',
      async (path) => {
        const outcome = await runInSwaggerUi(browser, `${origin}${path}`);
        expect(outcome).toMatchObject({ listPets: '200', createPet: '201', blocked: [] });
        expect(outcome.servers[0]).toContain(`${origin}/v1`);
        if (env.PUBLIC_BASE_URL) {
          expect(outcome.servers.slice(1).map((server) => server.split(' ')[0])).toEqual([env.PUBLIC_BASE_URL, env.STAGING_BASE_URL]);
        }
      },
      60_000,
    );
  });
});
