import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { AUTH, startApp } from './support/test-app.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from './support/test-database.js';

describe.each(DATABASE_KINDS)('persistence on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('keeps every acknowledged pet across an application restart', async () => {
    const first = await startApp(database);
    const created = [];
    for (const name of ['Rex', 'Zoë 🐈', '名前']) {
      const response = await request(first.getHttpServer()).post('/v1/pets').set(AUTH).send({ name, categoryId: 5 });
      expect(response.status).toBe(201);
      created.push(response.body);
    }
    await first.close();

    const second = await startApp(database);
    try {
      const listed = await request(second.getHttpServer()).get('/v1/pets').set(AUTH);
      expect(listed.body).toEqual(created);
      for (const pet of created) {
        expect((await request(second.getHttpServer()).get(`/v1/pets/${pet.id}`).set(AUTH)).body).toEqual(pet);
      }
      // Ids keep increasing after a restart.
      const next = await request(second.getHttpServer()).post('/v1/pets').set(AUTH).send({ name: 'After', categoryId: 1 });
      expect(next.body.id).toBeGreaterThan(created[2].id);
    } finally {
      await second.close();
    }
  });

  it('starts on an already migrated database with MIGRATIONS_RUN=false', async () => {
    const app = await startApp(database, { MIGRATIONS_RUN: 'false' });
    try {
      expect((await request(app.getHttpServer()).get('/v1/pets').set(AUTH)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
