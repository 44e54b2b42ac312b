import { beforeAll, describe, expect, it } from '@jest/globals';
import { AUTH, expectError, useApp } from './support/test-app.js';
import { DATABASE_KINDS } from './support/test-database.js';

type Pet = { id: number; name: string; status: string };

/** The URL of a Link rel="next" header, or undefined. */
function nextLink(linkHeader: string | undefined): URL | undefined {
  const match = linkHeader ? /<([^>]+)>;\s*rel="next"/.exec(linkHeader) : null;
  return match ? new URL(match[1]) : undefined;
}

describe.each(DATABASE_KINDS)('pagination on %s', (kind) => {
  const ctx = useApp(kind);
  const statuses = ['available', 'pending', 'sold'];

  beforeAll(async () => {
    for (let i = 0; i < 25; i++) {
      await ctx
        .http()
        .post('/v1/pets')
        .set(AUTH)
        .send({ name: `Page ${i}`, categoryId: 1, status: statuses[i % 3] });
    }
  });

  /** Follows Link rel="next" from `path` to the end; returns every page. */
  async function walk(path: string): Promise<{ pages: Pet[][]; links: (URL | undefined)[] }> {
    const pages: Pet[][] = [];
    const links: (URL | undefined)[] = [];
    let url: string | undefined = path;
    while (url) {
      const response = await ctx.http().get(url).set(AUTH);
      expect(response.status).toBe(200);
      expect(Array.isArray(response.body)).toBe(true);
      pages.push(response.body);
      const next = nextLink(response.headers.link);
      links.push(next);
      url = next ? `${next.pathname}${next.search}` : undefined;
      expect(pages.length).toBeLessThan(30);
    }
    return { pages, links };
  }

  it('walks every pet exactly once, in ascending id order, through Link rel="next"', async () => {
    const { pages } = await walk('/v1/pets?limit=10');
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
    const ids = pages.flat().map((pet) => pet.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(25);
  });

  it('gives absolute next-page URLs that keep limit and status, and none on the last page', async () => {
    const { pages, links } = await walk('/v1/pets?limit=3&status=sold');
    for (const link of links.slice(0, -1)) {
      expect(link!.protocol).toBe('http:');
      expect(link!.host).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(link!.pathname).toBe('/v1/pets');
      expect(link!.searchParams.get('limit')).toBe('3');
      expect(link!.searchParams.get('status')).toBe('sold');
      expect(link!.searchParams.get('cursor')).toEqual(expect.any(String));
    }
    expect(links.at(-1)).toBeUndefined();
    const pets = pages.flat();
    expect(pets.length).toBe(8);
    expect(pets.every((pet) => pet.status === 'sold')).toBe(true);
  });

  it('sends no Link header when everything fits on one page', async () => {
    const response = await ctx.http().get('/v1/pets?limit=100').set(AUTH);
    expect(response.headers.link).toBeUndefined();
  });

  it('lets the next page use another limit with the same cursor', async () => {
    const first = await ctx.http().get('/v1/pets?limit=5').set(AUTH);
    const cursor = nextLink(first.headers.link)!.searchParams.get('cursor')!;
    const second = await ctx
      .http()
      .get(`/v1/pets?limit=2&cursor=${encodeURIComponent(cursor)}`)
      .set(AUTH);
    expect(second.status).toBe(200);
    expect(second.body.map((pet: Pet) => pet.id)).toEqual([first.body[4].id + 1, first.body[4].id + 2]);
  });

  it('picks up pets added after the first page was read', async () => {
    const first = await ctx.http().get('/v1/pets?limit=20').set(AUTH);
    const created = await ctx.http().post('/v1/pets').set(AUTH).send({ name: 'Late', categoryId: 1 });
    const rest = await walk(`${nextLink(first.headers.link)!.pathname}${nextLink(first.headers.link)!.search}`);
    expect(rest.pages.flat().map((pet) => pet.id)).toContain(created.body.id);
  });

  describe('refuses cursors that are not ours for this listing', () => {
    let cursor: string;
    beforeAll(async () => {
      const page = await ctx.http().get('/v1/pets?limit=2&status=available').set(AUTH);
      cursor = nextLink(page.headers.link)!.searchParams.get('cursor')!;
    });

    it.each([
      ['garbage', () => 'not-a-cursor'],
      ['truncated', () => cursor.slice(0, -3)],
      ['with an edited payload', () => `${Buffer.from('[1,"pets?status=available"]').toString('base64url')}.${cursor.split('.')[1]}`],
      ['with an edited check', () => `${cursor.split('.')[0]}.AAAAAAAA`],
      ['empty', () => ''],
    ])('a cursor that is %s', async (_, make) => {
      const response = await ctx
        .http()
        .get(`/v1/pets?status=available&cursor=${encodeURIComponent(make())}`)
        .set(AUTH);
      expectError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.message).toMatch(/\bcursor\b/);
    });

    it('a cursor from another status filter', async () => {
      expectError(
        await ctx
          .http()
          .get(`/v1/pets?status=sold&cursor=${encodeURIComponent(cursor)}`)
          .set(AUTH),
        400,
        'VALIDATION_FAILED',
      );
      expectError(
        await ctx
          .http()
          .get(`/v1/pets?cursor=${encodeURIComponent(cursor)}`)
          .set(AUTH),
        400,
        'VALIDATION_FAILED',
      );
    });

    it('a cursor given twice', async () => {
      const c = encodeURIComponent(cursor);
      expectError(await ctx.http().get(`/v1/pets?status=available&cursor=${c}&cursor=${c}`).set(AUTH), 400, 'VALIDATION_FAILED');
    });

    it('still accepts the genuine cursor', async () => {
      expect(
        (
          await ctx
            .http()
            .get(`/v1/pets?status=available&cursor=${encodeURIComponent(cursor)}`)
            .set(AUTH)
        ).status,
      ).toBe(200);
    });
  });
});
