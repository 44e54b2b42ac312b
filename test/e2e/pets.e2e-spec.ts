import { describe, expect, it } from '@jest/globals';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';
import * as expected from '../support/resources.js';

describe.each(DATABASE_KINDS)('pets on %s', (kind) => {
  const ctx = useApp(kind);
  const createPet = (body: unknown) =>
    ctx
      .http()
      .post('/v1/pets')
      .set(AUTH)
      .send(body as object);
  const countPets = async () => (await ctx.http().get('/v1/pets?limit=100').set(AUTH)).body.length as number;

  describe('createPet', () => {
    it('answers 201 with the created pet, status defaulting to available', async () => {
      const response = await createPet({ name: 'Rex', categoryId: 3 });
      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      // metadata from 1.5.0: {} when none.
      expect(response.body).toEqual(expected.pet({ id: expect.any(Number), name: 'Rex', categoryId: 3, status: 'available' }));
    });

    it('keeps a given status', async () => {
      for (const status of ['available', 'pending', 'sold']) {
        const response = await createPet({ name: `Status ${status}`, categoryId: 1, status });
        expect(response.status).toBe(201);
        expect(response.body.status).toBe(status);
      }
    });

    it('writes ids and categoryIds as JSON integers, never strings', async () => {
      const response = await createPet({ name: 'Big', categoryId: Number.MAX_SAFE_INTEGER });
      expect(response.text).toMatch(/"id":\d+/);
      expect(response.text).toContain(`"categoryId":${Number.MAX_SAFE_INTEGER}`);
      const read = await ctx.http().get(`/v1/pets/${response.body.id}`).set(AUTH);
      expect(read.text).toMatch(new RegExp(`"id":${response.body.id}[,}]`));
      const listed = await ctx.http().get('/v1/pets?limit=100').set(AUTH);
      expect(listed.text).not.toMatch(/"(id|categoryId)":"/);
    });

    it('assigns increasing ids', async () => {
      const first = await createPet({ name: 'First', categoryId: 1 });
      const second = await createPet({ name: 'Second', categoryId: 1 });
      expect(second.body.id).toBeGreaterThan(first.body.id);
    });

    it.each([
      ['emoji', 'Rex 🐶🐈‍⬛'],
      ['CJK', '名前はポチ'],
      ['right-to-left', 'كلب'],
      ['combining marks', 'Zoë Å'],
      ['surrounding white space, kept as sent', '  Rex  '],
      ['255 emoji (255 characters)', '🐶'.repeat(255)],
      ['a single character', 'x'],
    ])('stores a name with %s exactly and reads it back', async (_, name) => {
      const created = await createPet({ name, categoryId: 7 });
      expect(created.status).toBe(201);
      expect(created.body.name).toBe(name);
      const read = await ctx.http().get(`/v1/pets/${created.body.id}`).set(AUTH);
      expect(read.body.name).toBe(name);
    });

    it.each([
      ['missing', {}],
      ['empty', { name: '' }],
      ['only white space', { name: ' \t\n ' }],
      ['256 characters', { name: 'a'.repeat(256) }],
      ['not a string', { name: 42 }],
      ['null', { name: null }],
      ['a lone surrogate', { name: 'Rex \ud800' }],
    ])('rejects a name that is %s, naming the field', async (_, fields) => {
      const before = await countPets();
      const response = await createPet({ categoryId: 1, ...fields });
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\bname\b/);
      expect(await countPets()).toBe(before);
    });

    it.each([
      ['missing', undefined],
      ['zero', 0],
      ['negative', -1],
      ['a fraction', 1.5],
      ['a string', '5'],
      ['above 2^53-1', 9007199254740992],
      ['null', null],
      ['a boolean', true],
    ])('rejects a categoryId that is %s, naming the field', async (_, categoryId) => {
      const response = await createPet({ name: 'Rex', categoryId });
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\bcategoryId\b/);
    });

    it('accepts the categoryId bounds 1 and 2^53-1', async () => {
      expect((await createPet({ name: 'Low', categoryId: 1 })).status).toBe(201);
      expect((await createPet({ name: 'High', categoryId: 9007199254740991 })).status).toBe(201);
    });

    it.each([['adopted'], [null], ['AVAILABLE'], [1]])('rejects status %p, naming the field', async (status) => {
      const response = await createPet({ name: 'Rex', categoryId: 1, status });
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\bstatus\b/);
    });

    it('rejects an id in the body: ids are assigned by the service', async () => {
      const response = await createPet({ id: 99, name: 'Rex', categoryId: 1 });
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\bid\b/);
    });

    it('rejects a property the schema does not have', async () => {
      // A name no field will take, so that no field added to a pet makes this one it has.
      const response = await createPet({ name: 'Rex', categoryId: 1, 'no such field': 'brown' });
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\bno such field\b/);
    });

    it('names every bad field in one message', async () => {
      const response = await createPet({ name: '', categoryId: 'x', status: 'gone', 'no such field': 1 });
      expectError(response, 400, 'VALIDATION_FAILED');
      for (const field of ['name', 'categoryId', 'status', 'no such field']) {
        expect(response.body.message).toMatch(new RegExp(`\\b${field}\\b`));
      }
    });

    it.each([
      ['an array', '[]'],
      ['a string', '"Rex"'],
      ['a number', '42'],
      ['null', 'null'],
    ])('rejects a body that is %s rather than an object', async (_, body) => {
      const response = await ctx.http().post('/v1/pets').set(AUTH).set('Content-Type', 'application/json').send(body);
      expectError(response, 400, 'VALIDATION_FAILED');
    });

    it('rejects a POST without a body, naming the required fields', async () => {
      const response = await ctx.http().post('/v1/pets').set(AUTH);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\bname\b.*\bcategoryId\b/);
    });

    it('refuses a __proto__ key like any other unknown property, instead of letting it set fields', async () => {
      const response = await ctx
        .http()
        .post('/v1/pets')
        .set(AUTH)
        .set('Content-Type', 'application/json')
        .send('{"name":"Rex","categoryId":1,"__proto__":{"status":"sold"}}');
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toBe('__proto__ is not allowed.');
    });
  });

  describe('getPet', () => {
    it('answers 200 with the pet', async () => {
      const created = await createPet({ name: 'Lookup', categoryId: 4, status: 'pending' });
      const response = await ctx.http().get(`/v1/pets/${created.body.id}`).set(AUTH);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(created.body);
    });

    it('answers 404 PET_NOT_FOUND for an id no pet has', async () => {
      expectError(await ctx.http().get('/v1/pets/987654321').set(AUTH), 404, 'PET_NOT_FOUND');
    });

    it('answers 404 for the largest id the document allows, 2^53-1', async () => {
      expectError(await ctx.http().get('/v1/pets/9007199254740991').set(AUTH), 404, 'PET_NOT_FOUND');
    });

    it.each(['abc', '0', '-1', '1.5', '1e3', '01', '9007199254740992', '9223372036854775807', '9223372036854775808', '%20'])(
      'rejects petId %p with VALIDATION_FAILED',
      async (petId) => {
        const response = await ctx.http().get(`/v1/pets/${petId}`).set(AUTH);
        expectError(response, 400, 'VALIDATION_FAILED');
        expect(response.body.message).toMatch(/\bpetId\b/);
      },
    );
  });

  describe('listPets', () => {
    it('lists in ascending id order, 20 by default, at most limit', async () => {
      for (let i = 0; i < 25; i++) await createPet({ name: `Bulk ${i}`, categoryId: 2, status: 'sold' });

      const page = await ctx.http().get('/v1/pets').set(AUTH);
      expect(page.status).toBe(200);
      expect(page.body).toHaveLength(20);
      const ids = page.body.map((pet: { id: number }) => pet.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));

      expect((await ctx.http().get('/v1/pets?limit=5').set(AUTH)).body).toHaveLength(5);
      expect((await ctx.http().get('/v1/pets?limit=1').set(AUTH)).body).toHaveLength(1);
      const all = await ctx.http().get('/v1/pets?limit=100').set(AUTH);
      expect(all.body.length).toBeGreaterThan(25);
      expect(all.body.length).toBeLessThanOrEqual(100);
    });

    it('filters by status', async () => {
      await createPet({ name: 'Waiting', categoryId: 1, status: 'pending' });
      for (const status of ['available', 'pending', 'sold']) {
        const response = await ctx.http().get(`/v1/pets?status=${status}&limit=100`).set(AUTH);
        expect(response.status).toBe(200);
        expect(response.body.length).toBeGreaterThan(0);
        expect(response.body.every((pet: { status: string }) => pet.status === status)).toBe(true);
      }
    });

    it('ignores unknown query parameters', async () => {
      const response = await ctx.http().get('/v1/pets?limit=2&colour=brown').set(AUTH);
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(2);
    });

    it.each(['0', '101', 'abc', '1.5', '', '-3', '10abc'])('rejects limit=%p with VALIDATION_FAILED', async (limit) => {
      const response = await ctx.http().get(`/v1/pets?limit=${limit}`).set(AUTH);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\blimit\b/);
    });

    it('rejects a repeated limit', async () => {
      expectError(await ctx.http().get('/v1/pets?limit=2&limit=3').set(AUTH), 400, 'VALIDATION_FAILED');
    });

    it.each(['adopted', '', 'SOLD'])('rejects status=%p with VALIDATION_FAILED', async (status) => {
      const response = await ctx.http().get(`/v1/pets?status=${status}`).set(AUTH);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\bstatus\b/);
    });

    it('names both bad query values in one message', async () => {
      const response = await ctx.http().get('/v1/pets?limit=0&status=adopted').set(AUTH);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\blimit\b/);
      expect(response.body.message).toMatch(/\bstatus\b/);
    });
  });

  describe('store orders', () => {
    it('GET /v1/store/orders answers a JSON array', async () => {
      const response = await ctx.http().get('/v1/store/orders').set(AUTH);
      expect(response.status).toBe(200);
      expect(Array.isArray(response.body)).toBe(true);
    });
  });
});
