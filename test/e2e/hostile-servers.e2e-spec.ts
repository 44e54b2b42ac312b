import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import mysql from 'mysql2/promise';
import type request from 'supertest';
import { ApiKeyIssuer } from '../../src/auth/api-key-issuer.js';
import { isName } from '../../src/validation/name.js';
import { MARIADB_SERVERS_AVAILABLE, type MariadbServer, startMariadb } from './support/mariadb-server.js';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.js';
import * as expected from '../support/resources.js';

/**
 * Text that a data path which fills placeholders in on the client turns into statements, or alters,
 * on some server: a quote after a backslash the server does not read as an escape
 * (NO_BACKSLASH_ESCAPES), a quote after 縗, whose last UTF-8 byte and the escaping backslash GBK reads
 * as one character; statements that would raise a key's scopes; the number that once marked where
 * an inserted id goes; every kind of quote, comment and escape; text outside latin1 and GBK.
 */
const HOSTILE = [
  "x',1,0x61);CREATE TABLE pwned_nbe(i INT);#",
  "縗',1,0x61);CREATE TABLE pwned_gbk(i INT);#",
  "\\',1,0x61);CREATE TABLE pwned_backslash(i INT);#",
  "x'); UPDATE api_keys SET scopes = 'pets:read pets:write store:read store:write webhooks:read webhooks:write';#",
  "縗'); UPDATE api_keys SET scopes = 'pets:read pets:write store:read store:write webhooks:read webhooks:write';#",
  'Rex -9007199254740991',
  '-9007199254740991',
  'a\\"b\\\\c \\u0000 "double" \'single\' `tick` ; -- # /* */ ? %s $1',
  '🐶 𝕏 é ü 中文 עברית ＧＢＫ ¥ ₩ 〜 丂 乗',
  '\u00a0\t\n\r\u0001\u007f\u2028 controls',
];

/** The longest excerpt of a receiver's answer the service keeps is far longer than these. */
const HOSTILE_ANSWER = "x',1,0x61);CREATE TABLE pwned_answer(i INT);# 縗' 🐶 \\'";

/** Where the service under test keeps its data. */
interface Target {
  readonly kind: 'sqlite' | 'mysql';
  /** A MariaDB server of the test's own, set up so; the suite's MySQL server when absent. */
  readonly serverSettings?: readonly string[];
}

const TARGETS: [string, Target][] = [
  ['SQLite', { kind: 'sqlite' }],
  ...(DATABASE_KINDS.includes('mysql') ? ([['MySQL as the suite runs it', { kind: 'mysql' }]] as [string, Target][]) : []),
  ['MariaDB with NO_BACKSLASH_ESCAPES', { kind: 'mysql', serverSettings: ['--sql-mode=NO_BACKSLASH_ESCAPES,STRICT_TRANS_TABLES'] }],
  [
    'MariaDB forcing GBK on every client',
    {
      kind: 'mysql',
      serverSettings: ['--character-set-server=gbk', '--collation-server=gbk_chinese_ci', '--skip-character-set-client-handshake'],
    },
  ],
];

if (!MARIADB_SERVERS_AVAILABLE) {
  const banner = '\n#  Hostile-server e2e tests DID NOT RUN: no mariadbd here (Debian: apt-get install mariadb-server).\n';
  if (process.env.CI === 'true') throw new Error(`${banner}CI=true: the hostile-server tests are required.`);
  process.stderr.write(banner);
}

describe.each(TARGETS.filter(([, { serverSettings }]) => !serverSettings || MARIADB_SERVERS_AVAILABLE))(
  'hostile values on %s',
  (_, { kind, serverSettings }) => {
    let server: MariadbServer | undefined;
    beforeAll(async () => {
      if (serverSettings) server = await startMariadb(serverSettings);
    }, 60_000);

    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await startReceiver(() => ({ status: 200, body: HOSTILE_ANSWER }));
    });
    afterAll(async () => receiver?.close());

    // On a server of its own the database takes that server's character set (GBK), as a DBA's would.
    const ctx = useApp(kind, { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_SCHEDULE: '0' }, () =>
      createTestDatabase(kind, server && { url: server.url, charset: null }),
    );
    // After the service's database is dropped (Jest runs afterAll hooks in the order they are declared).
    afterAll(async () => server?.stop());
    let limited: string;
    beforeAll(async () => {
      // The key of the writes, holding pets:write only: the statements in the names would raise it.
      limited = (await ctx.app.get(ApiKeyIssuer).create('pets only', { scopes: ['pets:read', 'pets:write'] })).key;
    });
    const asLimited = (call: request.Test) => call.set('Authorization', `Bearer ${limited}`);

    /** Creates a pet as the limited key, with `idempotencyKey`, its name in its metadata too (1.5.0); the answer must be a 201. */
    const createPet = async (name: string, idempotencyKey: string) => {
      const created = await asLimited(ctx.http().post('/v1/pets'))
        .set('Idempotency-Key', idempotencyKey)
        .send({ name, categoryId: 1, metadata: { ref: name } });
      expect({ status: created.status, body: created.body }).toEqual({
        status: 201,
        body: expected.pet({ id: expect.any(Number), name, categoryId: 1, metadata: { ref: name } }),
      });
      return created;
    };

    /** The same request again: the stored answer, byte for byte. */
    const expectReplay = async (created: request.Response, idempotencyKey: string) => {
      const replay = await asLimited(ctx.http().post('/v1/pets'))
        .set('Idempotency-Key', idempotencyKey)
        .send({ name: created.body.name, categoryId: 1, metadata: { ref: created.body.name } });
      expect({ status: replay.status, replayed: replay.headers['idempotent-replayed'], text: replay.text }).toEqual({
        status: 201,
        replayed: 'true',
        text: created.text,
      });
    };

    /** Every `pet.created` event, by its pet's id, as listed and as delivered (the stored text). */
    const petEvents = async () => {
      const listed = new Map<number, unknown>();
      for (let cursor = ''; ;) {
        const page = await ctx.http().get(`/v1/events?type=pet.created&limit=100${cursor}`).set(AUTH);
        expect(page.status).toBe(200);
        for (const event of page.body) listed.set(event.data.object.id, event.data.object);
        const next = /<[^>]*[?&]cursor=([^&>]+)[^>]*>; rel="next"/.exec(page.headers.link ?? '');
        if (!next) return listed;
        cursor = `&cursor=${next[1]}`;
      }
    };

    const expectToldExactly = async (created: readonly request.Response[]) => {
      const listed = await petEvents();
      for (const pet of created) expect(listed.get(pet.body.id)).toEqual(pet.body);
      // Delivered as stored: the 201's very text is the event's object.
      const deliveries = await receiver.waitFor('/hook', listed.size, 20_000);
      for (const pet of created) expect(deliveries.some(({ body }) => body.includes(`"object":${pet.text}}`))).toBe(true);
    };

    /** No statement of a client's ran: no table of theirs, the limited key as it was, only the pets made. */
    const expectNothingRan = async (petsMade: number) => {
      expect(await tablesNamedPwned(ctx.database, server)).toEqual([]);
      const key = (await ctx.app.get(ApiKeyIssuer).list()).find(({ name }) => name === 'pets only')!;
      expect(key.scopes).toBe('pets:read pets:write');
      const all = await ctx.http().get('/v1/pets?limit=100').set(AUTH);
      expect(all.body).toHaveLength(petsMade);
    };

    let endpointId: string;
    let petsMade = 0;

    it('stores a webhook endpoint whose url and description are hostile, and reads them back exactly', async () => {
      const description = HOSTILE[1];
      const url = `${receiver.url}/hook`;
      const made = await ctx
        .http()
        .post('/v1/webhook-endpoints')
        .set(AUTH)
        .send({ url, events: ['pet.created'], description });
      expect(made.status).toBe(201);
      endpointId = made.body.id;
      const read = await ctx.http().get(`/v1/webhook-endpoints/${endpointId}`).set(AUTH);
      expect(read.body).toMatchObject({ url, description });
      const odd = `${receiver.url}/elsewhere/x',1);CREATE TABLE pwned_url(i INT);--?q=${encodeURIComponent(HOSTILE[0])}`;
      const other = await ctx
        .http()
        .post('/v1/webhook-endpoints')
        .set(AUTH)
        .send({ url: odd, events: ['order.placed'], description: HOSTILE[0] });
      expect(other.status).toBe(201);
      const readOther = await ctx.http().get(`/v1/webhook-endpoints/${other.body.id}`).set(AUTH);
      expect(readOther.body).toMatchObject({ url: other.body.url, description: HOSTILE[0] });
      expect(new URL(readOther.body.url).href).toBe(new URL(odd).href);
    });

    it('stores, answers, replays and tells of every hostile name exactly, and runs none of it', async () => {
      const created: request.Response[] = [];
      for (const [i, name] of HOSTILE.entries()) {
        const pet = await createPet(name, `hostile-name-${i}`);
        created.push(pet);
        await expectReplay(pet, `hostile-name-${i}`);
        const read = await asLimited(ctx.http().get(`/v1/pets/${pet.body.id}`));
        expect(read.text).toBe(pet.text);
      }
      petsMade += created.length;
      const listed = await ctx.http().get('/v1/pets?limit=100').set(AUTH);
      for (const pet of created) expect(listed.body).toContainEqual(pet.body);
      await expectToldExactly(created);
      await expectNothingRan(petsMade);
    });

    it('keeps the receiver’s hostile answer as it came', async () => {
      const [event] = (await ctx.http().get('/v1/events?type=pet.created&limit=1').set(AUTH)).body;
      const read = await ctx.http().get(`/v1/events/${event.id}`).set(AUTH);
      const attempts = read.body.deliveries.flatMap((delivery: { attempts: unknown[] }) => delivery.attempts);
      expect(attempts).toContainEqual(expect.objectContaining({ status: 200, responseBody: HOSTILE_ANSWER }));
    });

    it('takes hostile Idempotency-Keys as keys, exactly: each its own, case and all', async () => {
      const keys = [
        "'); CREATE TABLE pwned_key(i INT);#",
        "\\'); CREATE TABLE pwned_key_backslash(i INT);#",
        '-9007199254740991',
        'case-Sensitive',
        'CASE-SENSITIVE',
      ];
      const created = [];
      for (const [i, key] of keys.entries()) {
        const pet = await createPet(`keyed ${i}`, key);
        await expectReplay(pet, key);
        created.push(pet.body.id);
      }
      expect(new Set(created).size).toBe(keys.length);
      petsMade += keys.length;
      await expectNothingRan(petsMade);
    });

    // The request log writes its batches as literals: each hostile text must come back as answered.
    it('keeps hostile paths, Idempotency-Keys and the errors that quote them in the request log exactly, and runs none of them', async () => {
      const keys = ["'); CREATE TABLE pwned_log_key(i INT);#", "\\'); CREATE TABLE pwned_log_backslash(i INT);#"];
      const sent = [];
      for (const [i, value] of HOSTILE.entries()) {
        const path = `/v1/events/${encodeURIComponent(value)}`;
        const requestId = `hostile-log-${i}`;
        const answer = await ctx
          .http()
          .get(path)
          .set(AUTH)
          .set('X-Request-Id', requestId)
          .set('Idempotency-Key', keys[i % 2]);
        expectError(answer, 404, 'EVENT_NOT_FOUND');
        sent.push({ requestId, path, idempotencyKey: keys[i % 2], error: { code: answer.body.code, message: answer.body.message } });
      }
      for (const { requestId, path, idempotencyKey, error } of sent) {
        let entry = await ctx.http().get(`/v1/requests/${requestId}`).set(AUTH);
        for (let waited = 0; entry.status === 404 && waited < 3000; waited += 100) {
          await new Promise((wait) => setTimeout(wait, 100));
          entry = await ctx.http().get(`/v1/requests/${requestId}`).set(AUTH);
        }
        expect(entry.body).toMatchObject({ id: requestId, method: 'GET', path, status: 404, idempotencyKey, error });
      }
      await expectNothingRan(petsMade);
    });

    it('answers hostile paths and queries as not found or not valid, and runs none of them', async () => {
      for (const value of HOSTILE) {
        const path = encodeURIComponent(value);
        expectError(await ctx.http().get(`/v1/events/${path}`).set(AUTH), 404, 'EVENT_NOT_FOUND');
        expectError(await ctx.http().get(`/v1/webhook-endpoints/${path}`).set(AUTH), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
        expectError(await ctx.http().get(`/v1/pets/${path}`).set(AUTH), 400, 'VALIDATION_FAILED');
        expectError(await ctx.http().get(`/v1/store/orders/${path}`).set(AUTH), 400, 'VALIDATION_FAILED');
        expectError(await ctx.http().get(`/v1/pets?status=${path}`).set(AUTH), 400, 'VALIDATION_FAILED');
        expectError(await ctx.http().get(`/v1/pets?cursor=${path}`).set(AUTH), 400, 'VALIDATION_FAILED');
        expectError(await ctx.http().get(`/v1/events?type=${path}`).set(AUTH), 400, 'VALIDATION_FAILED');
        expectError(await ctx.http().post(`/v1/events/${path}/redeliver`).set(AUTH).send({}), 404, 'EVENT_NOT_FOUND');
      }
      await expectNothingRan(petsMade);
    });

    it('answers, replays and tells of any name exactly: random names, the old sentinel and hostile text among them', async () => {
      const fragments = fc.constantFrom(...HOSTILE, '-9007199254740991', "'", '\\', '縗', '"', '\u0000');
      const text = fc.string({ unit: 'grapheme', maxLength: 30 });
      const names = fc
        .oneof(
          fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }),
          fc.tuple(text, fragments, text).map((parts) => parts.join('')),
        )
        .filter((name) => isName(name, 1, 255));
      const created: request.Response[] = [];
      await fc.assert(
        fc.asyncProperty(names, async (name) => {
          const key = `random-${created.length}`;
          const pet = await createPet(name, key);
          created.push(pet);
          await expectReplay(pet, key);
        }),
        { numRuns: 40 },
      );
      petsMade += created.length;
      await expectToldExactly(created);
      await expectNothingRan(petsMade);
    });
  },
);

/** Tables whose name a hostile value gave, on the test's whole MySQL server or in its SQLite file. */
async function tablesNamedPwned(database: TestDatabase, server: MariadbServer | undefined): Promise<string[]> {
  if (database.kind === 'sqlite') {
    const file = new Database(database.url.replace(/^sqlite:/, ''), { readonly: true });
    try {
      return file.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'pwned%'").pluck().all() as string[];
    } finally {
      file.close();
    }
  }
  const connection = await mysql.createConnection({ uri: server?.url ?? database.url });
  try {
    const [rows] = await connection.query("SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'pwned%'");
    return (rows as { name: string }[]).map(({ name }) => name);
  } finally {
    await connection.end();
  }
}
