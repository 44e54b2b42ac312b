import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { BrowserContext, Page } from 'puppeteer-core';
import { type Chromium, closeContext, launchChromium } from './support/chromium.js';
import { CHROMIUM_PROBE_VARIABLE } from './support/global-setup.js';
import { stopApp } from './support/stop-app.js';
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

/** One answer of Try it out, as the page shows it under "Server response". */
interface Answer {
  status: number;
  body: any;
  /** Lower-case names, as the page lists them. */
  headers: Record<string, string>;
  /** The Request URL the page shows. */
  url: string;
  /** The Idempotency-Key the request carried, as the page's curl command shows it. */
  idempotencyKey?: string;
}

/** Opens an operation (`tag-operationId`) and presses Try it out; the selector of its block. */
async function tryOut(page: Page, operation: string): Promise<string> {
  const block = `#operations-${operation}`;
  await page.click(`${block} .opblock-summary`);
  await page.waitForSelector(`${block} .try-out__btn`);
  await page.click(`${block} .try-out__btn`);
  return block;
}

/**
 * Replaces what a field shows with `text`, as someone pasting it does (one input event: typed key by
 * key, the page drew every open operation again at each key); Tab leaves it, so that the page takes the value.
 */
async function typeInto(page: Page, field: string, text: string): Promise<void> {
  await page.focus(field);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  if (text === '') await page.keyboard.press('Backspace');
  else await page.keyboard.sendCharacter(text);
  await page.keyboard.press('Tab');
}

/** What a field (an input or a textarea) shows. */
const valueOf = (page: Page, field: string) => page.$eval(field, (element) => (element as unknown as { value: string }).value);

/** Selects `shown` where a field first shows it and pastes `typed` over it, as someone editing the page's example does. */
async function editInto(page: Page, field: string, shown: string, typed: string): Promise<void> {
  const start = (await valueOf(page, field)).indexOf(shown);
  if (start < 0) throw new Error(`${field} does not show ${shown}`);
  await page.focus(field);
  await page.$eval(
    field,
    (element, from, to) => (element as unknown as { setSelectionRange(from: number, to: number): void }).setSelectionRange(from, to),
    start,
    start + shown.length,
  );
  await page.keyboard.sendCharacter(typed);
  await page.keyboard.press('Tab');
}

const parameter = (block: string, name: string) => `${block} tr[data-param-name="${name}"] input`;
const body = (block: string) => `${block} textarea.body-param__text`;

/** Presses Execute (clearing the answer before, so that the one read is this one's) and reads the answer. */
async function execute(page: Page, block: string): Promise<Answer> {
  if (await page.$(`${block} .btn-clear`)) {
    await page.click(`${block} .btn-clear`);
    await page.waitForSelector(`${block} .live-responses-table`, { hidden: true });
  }
  await page.click(`${block} .execute`);
  const row = `${block} .live-responses-table tbody tr.response`;
  await page.waitForSelector(`${row} .response-col_status`, { timeout: 15_000 });
  const shown = await page.$eval(row, (answer) => ({
    status: answer.querySelector('.response-col_status')!.textContent!.trim(),
    body: answer.querySelector('.highlight-code pre')?.textContent ?? '',
    headers: [...answer.querySelectorAll('.headerline')].map((line) => line.textContent!.trim()),
  }));
  const url = await page.$eval(`${block} .request-url pre`, (pre) => pre.textContent!.trim());
  const curl = await page.$eval(`${block} .curl-command`, (command) => command.textContent!);
  const idempotencyKey = /-H 'Idempotency-Key: ([^']*)'/.exec(curl)?.[1];
  const headers = Object.fromEntries(
    shown.headers.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(shown.status), body: shown.body ? JSON.parse(shown.body) : undefined, headers, url, idempotencyKey };
}

/** Closes an operation once done with it, as someone does: the page draws every open one again at each change. */
const collapse = (page: Page, block: string) => page.click(`${block} .opblock-summary`);

/** What Try it out showed for one operation, as the page fills it in: the status of the live response. */
async function tryItOut(page: Page, operationId: string, tag: string): Promise<string> {
  return String((await execute(page, await tryOut(page, `${tag}-${operationId}`))).status);
}

/** Opens Swagger UI at `url` and authorizes with the key; the page, whose Content-Security-Policy refusals land in `blocked`. */
async function openSwaggerUi(browser: BrowserContext, url: string, blocked: string[]): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy|Failed to fetch/i.test(message.text())) blocked.push(message.text());
  });
  try {
    await page.goto(url, { waitUntil: 'networkidle0' });
    await page.waitForSelector('.swagger-ui .auth-wrapper .authorize');
    await page.click('.swagger-ui .auth-wrapper .authorize');
    await page.waitForSelector('.auth-container input');
    await page.type('.auth-container input', TEST_API_KEY);
    await page.click('.auth-btn-wrapper .authorize');
    await page.click('.auth-btn-wrapper .btn-done');
    return page;
  } catch (error) {
    await page.close();
    throw error;
  }
}

/** The servers the page offers, as its list shows them. */
const serversOf = (page: Page) => page.$$eval('.servers select option', (options) => options.map((option) => option.textContent!.trim()));

/** Opens Swagger UI at `url`, authorizes with the key, and runs listPets and createPet with Try it out. */
async function runInSwaggerUi(browser: BrowserContext, url: string) {
  const blocked: string[] = [];
  const page = await openSwaggerUi(browser, url, blocked);
  try {
    const servers = await serversOf(page);
    const listPets = await tryItOut(page, 'listPets', 'pets');
    const createPet = await tryItOut(page, 'createPet', 'pets');
    return { servers, listPets, createPet, blocked };
  } finally {
    await page.close();
  }
}

/**
 * The sandboxes as someone tries them in the page: one made from the page's example body (sent
 * without an Idempotency-Key, which createSandbox refuses and declares none), listed, read and
 * deleted by the id typed in, then not found.
 */
async function runTheSandboxesInSwaggerUi(page: Page) {
  const createSandbox = await tryOut(page, 'sandboxes-createSandbox');
  const shown = JSON.parse(await valueOf(page, body(createSandbox)));
  const made = await execute(page, createSandbox);
  const listed = await execute(page, await tryOut(page, 'sandboxes-listSandboxes'));
  const getSandbox = await tryOut(page, 'sandboxes-getSandbox');
  await typeInto(page, parameter(getSandbox, 'sandboxId'), String(made.body?.id));
  const read = await execute(page, getSandbox);
  const deleteSandbox = await tryOut(page, 'sandboxes-deleteSandbox');
  await typeInto(page, parameter(deleteSandbox, 'sandboxId'), String(made.body?.id));
  const deleted = await execute(page, deleteSandbox);
  const gone = await execute(page, getSandbox);
  return {
    shown,
    createSandbox: { status: made.status, idempotencyKey: made.idempotencyKey, name: made.body?.name },
    listSandboxes: { status: listed.status, lists: listed.body?.some?.((sandbox: { id: string }) => sandbox.id === made.body?.id) },
    getSandbox: [read.status, gone.status],
    deleteSandbox: deleted.status,
  };
}

/**
 * The writes as someone tries them in the page, with what it shows: two pets created (the page's
 * example body, then another name), the pets listed, an order placed for each (the page's example
 * body with the pet's id), a pet renamed (the page's example) with nothing typed into If-Match,
 * renamed again with the ETag of a getPet the page ran (200), and once more with it, now stale
 * (412: the If-Match typed in is sent).
 * Then a key typed in is kept: the same create twice is one pet, replayed. Every operation it opened is closed again.
 */
async function runTheWritesInSwaggerUi(page: Page) {
  const createPet = await tryOut(page, 'pets-createPet');
  const keyShown = await valueOf(page, parameter(createPet, 'Idempotency-Key'));
  const rex = await execute(page, createPet);
  await editInto(page, body(createPet), '"Rex"', '"Bella"');
  const bella = await execute(page, createPet);

  const listPets = await tryOut(page, 'pets-listPets');
  const listed = await execute(page, listPets);
  await collapse(page, listPets);

  const placeOrder = await tryOut(page, 'store-placeOrder');
  const orders: Answer[] = [];
  for (const pet of [rex, bella]) {
    const shownPetId = JSON.parse(await valueOf(page, body(placeOrder))).petId;
    await editInto(page, body(placeOrder), `"petId": ${shownPetId}`, `"petId": ${pet.body?.id}`);
    orders.push(await execute(page, placeOrder));
  }
  await collapse(page, placeOrder);

  const updatePet = await tryOut(page, 'pets-updatePet');
  const ifMatchShown = await valueOf(page, parameter(updatePet, 'If-Match'));
  await typeInto(page, parameter(updatePet, 'petId'), String(rex.body?.id));
  const unconditional = await execute(page, updatePet);
  const getPet = await tryOut(page, 'pets-getPet');
  await typeInto(page, parameter(getPet, 'petId'), String(rex.body?.id));
  const read = await execute(page, getPet);
  await typeInto(page, parameter(updatePet, 'If-Match'), read.headers.etag ?? '');
  await editInto(page, body(updatePet), '"Rex II"', '"Rex III"');
  const conditional = await execute(page, updatePet);
  const stale = await execute(page, updatePet);

  await typeInto(page, parameter(createPet, 'Idempotency-Key'), 'typed-in-swagger-ui');
  const keyed = [await execute(page, createPet), await execute(page, createPet)];
  for (const block of [createPet, updatePet, getPet]) await collapse(page, block);

  return {
    shown: { idempotencyKey: keyShown, ifMatch: ifMatchShown },
    createPet: [rex.status, bella.status],
    twoPets: rex.body?.id !== bella.body?.id,
    freshKeys: new Set([rex, bella, ...orders, unconditional, conditional, stale].map((answer) => answer.idempotencyKey)).size,
    sentKeys: [rex.idempotencyKey, read.idempotencyKey],
    listPets: {
      status: listed.status,
      url: listed.url,
      both: [rex, bella].every((pet) => listed.body?.some?.((p: { id: number }) => p.id === pet.body?.id)),
    },
    placeOrder: orders.map((order) => order.status),
    updatePet: { unconditional: unconditional.status, getPet: read.status, conditional: conditional.status, stale: stale.status },
    staleCode: stale.body?.code,
    keyed: {
      statuses: keyed.map((answer) => answer.status),
      sent: keyed.map((answer) => answer.idempotencyKey),
      replayed: keyed[1].headers['idempotent-replayed'],
      onePet: keyed[0].body?.id === keyed[1].body?.id,
    },
  };
}

/**
 * Swagger UI's Try it out, in Chromium: it works from whatever address the page was opened at, the
 * page's Content-Security-Policy (connect-src 'self') kept, the configured servers still offered;
 * and its writes work with what the page fills in, Execute after Execute.
 */
describe.each(BROWSERS)('Swagger UI in %s', () => {
  let chromium: Chromium;
  beforeAll(async () => {
    chromium = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
  });

  const PUBLIC = { PUBLIC_BASE_URL: 'https://pets.example.net/v1', STAGING_BASE_URL: 'https://staging.pets.example.net/v1' };
  // [where, the service's environment, the path a reverse proxy in front mounts it at (none: no proxy),
  // whether the writes run there too (15 s each): on each address the page sends to, not again for each list of servers]
  describe.each([
    ['at 127.0.0.1, not localhost', {}, undefined, true],
    ['behind a reverse proxy that mounts it at /petstore, without PUBLIC_BASE_URL', {}, '/petstore', true],
    ['on an internal address while PUBLIC_BASE_URL and STAGING_BASE_URL name others', PUBLIC, undefined, false],
    ['behind a path-preserving reverse proxy while PUBLIC_BASE_URL and STAGING_BASE_URL name others', PUBLIC, '', false],
  ])('opened %s', (_, env: Record<string, string>, prefix: string | undefined, writes: boolean) => {
    let database: TestDatabase;
    let app: NestExpressApplication;
    let proxy: Server | undefined;
    let origin: string;
    // The pages' own: closing it closes every connection they opened to this service (issue 59).
    let browser: BrowserContext;
    beforeAll(async () => {
      browser = await chromium.browser.createBrowserContext();
      database = await createTestDatabase('sqlite');
      app = await startApp(database, env);
      let port = (app.getHttpServer().address() as AddressInfo).port;
      if (prefix !== undefined) {
        proxy = await reverseProxy(port, prefix);
        port = (proxy.address() as AddressInfo).port;
      }
      origin = `http://127.0.0.1:${port}${prefix ?? ''}`;
    });
    // Each step bounded: app.close() alone waited past 60 s for a connection Chromium opened and sent nothing on.
    afterAll(async () => {
      if (browser) await closeContext(browser);
      proxy?.close();
      proxy?.closeAllConnections();
      if (app) await stopApp(app);
      await database?.drop();
    });

    // /v1/docs is the address the start-up line and the README give: a redirect to /v1/docs/, where the
    // page's assets resolve, as the browser resolves it against the address it opened (checked by fetch,
    // which follows it as a browser does: another load of the 556 KB page costs Chromium seconds).
    it('at /v1/docs, sends the browser on to the page at /v1/docs/', async () => {
      const answer = await fetch(`${origin}/v1/docs`, { headers: { Accept: 'text/html' } });
      expect({ status: answer.status, redirected: answer.redirected, url: answer.url }).toEqual({
        status: 200,
        redirected: true,
        url: `${origin}/v1/docs/`,
      });
      expect(await answer.text()).toContain('swagger-ui');
    });

    if (!writes)
      it('at /v1/docs/, authorizes with a key and runs listPets and createPet with Try it out', async () => {
        const outcome = await runInSwaggerUi(browser, `${origin}/v1/docs/`);
        expect(outcome).toMatchObject({ listPets: '200', createPet: '201', blocked: [] });
        expect(outcome.servers[0]).toContain(`${origin}/v1`);
        expect(outcome.servers.slice(1).map((server) => server.split(' ')[0])).toEqual([env.PUBLIC_BASE_URL, env.STAGING_BASE_URL]);
      }, 60_000);

    // Where the writes run, one page at /v1/docs/ for them and then the sandboxes, as someone trying one
    // after the other has it: each page loads and renders the whole document again.
    let shared: Promise<{ page: Page; blocked: string[] }> | undefined;
    const sharedPage = () =>
      (shared ??= (async () => {
        const blocked: string[] = [];
        return { page: await openSwaggerUi(browser, `${origin}/v1/docs/`, blocked), blocked };
      })());

    if (writes)
      it('at /v1/docs/, authorizes with a key and runs the writes with what the page shows: every create a pet of its own, a change with or without If-Match', async () => {
        const { page, blocked } = await sharedPage();
        const servers = await serversOf(page);
        const outcome = await runTheWritesInSwaggerUi(page);
        expect(servers[0]).toContain(`${origin}/v1`);
        expect(outcome).toEqual({
          shown: { idempotencyKey: '', ifMatch: '' },
          createPet: [201, 201],
          twoPets: true,
          // A key of its own on every write (and none on a read, which declares none).
          freshKeys: 7,
          sentKeys: [expect.stringMatching(/^swagger-ui-[0-9a-f]{32}$/), undefined],
          // Nothing the page fills in unasked: no cursor, no metadata pair (a sample would filter the page empty).
          listPets: { status: 200, url: expect.not.stringMatching(/cursor=|metadata/), both: true },
          placeOrder: [201, 201],
          updatePet: { unconditional: 200, getPet: 200, conditional: 200, stale: 412 },
          staleCode: 'PRECONDITION_FAILED',
          keyed: { statuses: [201, 201], sent: ['typed-in-swagger-ui', 'typed-in-swagger-ui'], replayed: 'true', onePet: true },
        });
        expect(blocked).toEqual([]);
      }, 120_000);

    if (writes)
      it('runs the sandboxes with what the page shows: made from its example body, listed, read and deleted by the id typed in', async () => {
        const { page, blocked } = await sharedPage();
        const outcome = await runTheSandboxesInSwaggerUi(page);
        expect(outcome).toEqual({
          shown: { name: 'ci-run-1234', expiresIn: 3600 },
          createSandbox: { status: 201, idempotencyKey: undefined, name: 'ci-run-1234' },
          listSandboxes: { status: 200, lists: true },
          getSandbox: [200, 404],
          deleteSandbox: 202,
        });
        expect(blocked).toEqual([]);
      }, 120_000);
  });
});
