import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { eventually } from './support/eventually.js';
import { environmentOf, insertPets, rowsOf } from './support/sandbox-rows.js';
import { REDIS_PROBE_VARIABLE, redisServerUrl, removeRedisKeys } from './support/global-setup.js';
import { AUTH, startApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

/** The promise: a deleted sandbox's keys are refused by every instance within this long. */
const PROMISE_MS = 1_000;
const PETS = 10_000;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Deleting a sandbox (DECISIONS "Sandboxes"): its keys refused within a second on every instance,
 * with Redis and without; its rows, 10,000 pets of them, gone within a minute (counted in the
 * database) while live's stay; and live writes meanwhile no slower by more than 100 ms.
 */
// With Redis only when it answers (global-setup says so loudly, and under CI fails the run without it).
const REDIS = process.env[REDIS_PROBE_VARIABLE] === 'available';
describe.each(DATABASE_KINDS.flatMap((kind) => [[kind, false] as const, ...(REDIS ? [[kind, true] as const] : [])]))(
  'deleting a sandbox on %s, two instances, Redis: %s',
  (kind, withRedis) => {
    const prefix = `petstore-e2e-${process.pid}-${randomBytes(4).toString('hex')}:`;
    let database: TestDatabase;
    const instances: NestExpressApplication[] = [];

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      // The longest a checked key may be trusted: without the revocation reaching them, the instances would trust it 30 s.
      const env = {
        RATE_LIMIT_PER_MINUTE: '0',
        API_KEY_CACHE_MS: '30000',
        SANDBOXES_MAX: '5',
        ...(withRedis ? { REDIS_URL: redisServerUrl(), REDIS_KEY_PREFIX: prefix } : {}),
      };
      for (let i = 0; i < 2; i++) instances.push(await startApp(database, env));
    });
    afterAll(async () => {
      for (const instance of instances) await instance.close();
      await database?.drop();
      if (withRedis) await removeRedisKeys(prefix);
    });

    const http = (instance: NestExpressApplication) => request(instance.getHttpServer());
    /** Whether `instance` admits `key` (a sandbox's key is admitted, and refused sandbox management: 403). */
    const admits = async (instance: NestExpressApplication, key: string) =>
      (await http(instance).get('/v1/sandboxes').set('Authorization', `Bearer ${key}`)).status !== 401;

    it('refuses its key on both instances within 1 s', async () => {
      const times: number[] = [];
      for (let round = 0; round < 3; round++) {
        const { body: sandbox } = await http(instances[0])
          .post('/v1/sandboxes')
          .set(AUTH)
          .send({ name: `round ${round}` })
          .expect(201);
        for (const instance of instances) expect(await admits(instance, sandbox.apiKey)).toBe(true);
        // Deleted through the other instance than the one asked first, in turn.
        await http(instances[round % 2])
          .delete(`/v1/sandboxes/${sandbox.id}`)
          .set(AUTH)
          .expect(202);
        const deletedAt = Date.now();
        const refusedAfter = await Promise.all(
          instances.map(async (instance) => {
            while (await admits(instance, sandbox.apiKey)) {
              if (Date.now() - deletedAt > 5_000) return Infinity;
              await new Promise((wait) => setTimeout(wait, 10));
            }
            return Date.now() - deletedAt;
          }),
        );
        times.push(...refusedAfter);
      }
      if (process.env.PRINT_REMOVAL_FIGURES) process.stdout.write(`sandbox keys refused after ${times.join(', ')} ms\n`);
      expect(Math.max(...times)).toBeLessThan(PROMISE_MS);
    });

    it('makes exactly SANDBOXES_MAX of twice as many creates sent to both at once', async () => {
      const inUse = (await http(instances[0]).get('/v1/sandboxes').set(AUTH)).body.length;
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          http(instances[i % 2])
            .post('/v1/sandboxes')
            .set(AUTH)
            .send({ name: `both ${i}` }),
        ),
      );
      const made = answers.filter((answer) => answer.status === 201);
      expect(made.length).toBe(5 - inUse);
      expect(answers.filter((answer) => answer.status !== 201).map((answer) => answer.body.code)).toEqual(
        Array(10 - made.length).fill('SANDBOX_LIMIT_REACHED'),
      );
      for (const { body } of made) await http(instances[0]).delete(`/v1/sandboxes/${body.id}`).set(AUTH).expect(202);
    });

    // Once per database: what Redis changes is how fast keys are refused, not how rows go.
    if (!withRedis)
      it('removes its 10,000 pets and every other row within 60 s, leaving live’s', async () => {
        const [app] = instances;
        const { body: sandbox } = await http(app).post('/v1/sandboxes').set(AUTH).send({ name: 'full' }).expect(201);
        const { body: kept } = await http(app).post('/v1/sandboxes').set(AUTH).send({ name: 'kept' }).expect(201);
        const environment = await environmentOf(app, sandbox.id);
        const keptEnvironment = await environmentOf(app, kept.id);
        await insertPets(app, environment, PETS);
        await insertPets(app, keptEnvironment, 10);
        await insertPets(app, 0, 10);
        const dataSource = app.get(DataSource);
        await dataSource.query(
          "INSERT INTO pet_metadata (environment, pet_id, name, value) SELECT environment, id, 'erp_id', 'A-17' FROM pets WHERE environment = ?",
          [environment],
        );
        expect(await rowsOf(app, environment)).toMatchObject({ pets: PETS, pet_metadata: PETS, api_keys: 1, sandboxes: 1 });
        const liveBefore = await rowsOf(app, 0);

        await http(app).delete(`/v1/sandboxes/${sandbox.id}`).set(AUTH).expect(202);
        const deletedAt = Date.now();
        const rows = await eventually(
          () => rowsOf(app, environment),
          (counts) => Object.values(counts).every((count) => count === 0),
          60_000,
          250,
        );
        const tookMs = Date.now() - deletedAt;
        expect(rows).toEqual({
          pets: 0,
          pet_metadata: 0,
          orders: 0,
          events: 0,
          idempotency_records: 0,
          request_log: 0,
          api_keys: 0,
          sandboxes: 0,
        });
        expect(tookMs).toBeLessThan(60_000);
        // Live's rows stay (its request log grows with these requests meanwhile).
        const { pets, pet_metadata, api_keys } = liveBefore;
        expect(await rowsOf(app, 0)).toMatchObject({ pets, pet_metadata, api_keys });
        expect(await rowsOf(app, keptEnvironment)).toMatchObject({ pets: 10, api_keys: 1, sandboxes: 1 });
        await http(app).get(`/v1/sandboxes/${kept.id}`).set(AUTH).expect(200);
      }, 90_000);

    // On MySQL, whose row locks a removal could hold live writes up by.
    if (!withRedis && kind === 'mysql')
      it('holds live writes up by at most 100 ms while it removes 10,000 pets', async () => {
        const [app, other] = instances;
        /** createPet on the other instance, one after another, for `ms` or until `until` says stop: each one's time. */
        const writes = async (until: () => boolean, ms: number) => {
          const times: number[] = [];
          const started = Date.now();
          while (!until() && Date.now() - started < ms) {
            const sent = performance.now();
            await http(other).post('/v1/pets').set(AUTH).send({ name: 'Live', categoryId: 1 }).expect(201);
            times.push(performance.now() - sent);
          }
          return times;
        };
        /** One removal of a sandbox of 10,000 pets, with createPet timed on the other instance before it and during it. */
        const removalUnderWrites = async () => {
          const { body: sandbox } = await http(app).post('/v1/sandboxes').set(AUTH).send({ name: 'removed under writes' }).expect(201);
          const environment = await environmentOf(app, sandbox.id);
          await insertPets(app, environment, PETS);
          await app
            .get(DataSource)
            .query(
              "INSERT INTO pet_metadata (environment, pet_id, name, value) SELECT environment, id, 'erp_id', 'A-17' FROM pets WHERE environment = ?",
              [environment],
            );
          await writes(() => false, 1_000); // warm
          const quiet = await writes(() => false, 4_000);

          await http(app).delete(`/v1/sandboxes/${sandbox.id}`).set(AUTH).expect(202);
          let removed = false;
          const watching = (async () => {
            while ((await rowsOf(app, environment)).pets > 0) await new Promise((wait) => setTimeout(wait, 100));
            removed = true;
          })();
          // From the delete until its pets are gone: the removal's batches run among these writes.
          const during = await writes(() => removed, 60_000);
          await watching;
          const figures = {
            quiet: { n: quiet.length, median: median(quiet), max: Math.max(...quiet) },
            during: { n: during.length, median: median(during), max: Math.max(...during) },
          };
          if (process.env.PRINT_REMOVAL_FIGURES) process.stdout.write(`sandbox removal, createPet ms: ${JSON.stringify(figures)}\n`);
          expect(during.length).toBeGreaterThan(10);
          expect(figures.during.median - figures.quiet.median).toBeLessThan(100);
          return figures;
        };
        // The slowest write during a removal against the slowest without. One pause of the machine's own
        // (a neighbour's fsync, a collection in this process, which runs both instances) can land in
        // either window: a removal that holds writes up does so in each of its batches, so in every
        // try, and the check fails only when three removals in a row each held one up (a run of our
        // 2-core CI saw a single 273 ms write in one removal, beside pytest and three other files).
        let figures = await removalUnderWrites();
        for (let attempt = 1; attempt < 3 && figures.during.max - figures.quiet.max >= 100; attempt++) {
          process.stderr.write(
            `sandbox removal, try ${attempt}: a write took ${Math.round(figures.during.max)} ms, ${Math.round(figures.quiet.max)} ms without\n`,
          );
          figures = await removalUnderWrites();
        }
        expect(figures.during.max - figures.quiet.max).toBeLessThan(100);
      }, 300_000);
  },
);
