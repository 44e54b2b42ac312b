import type { HeadersObject } from '@nestjs/swagger';
import type { Response } from 'express';
import { HttpAnswer } from '../http/answers.js';
import { absoluteUrl } from '../http/request-origin.js';
import { decodeCursor, encodeCursor, type ListFilter } from './cursor.js';
import type { PageQuery } from './page-query.dto.js';

/**
 * One page of a listing, as a service returns it and a controller answers it: the client gets the
 * page's items and, when more follow, RFC 8288 `Link: <absolute URL of the next page>; rel="next"`
 * (the request's URL with the next cursor). The one place a listing's Link header is written.
 */
export class Page<T> extends HttpAnswer {
  override readonly linkIsTagged = true;

  constructor(
    readonly items: T[],
    /** Set when more items follow this page. */
    readonly nextCursor?: string,
  ) {
    super();
  }

  /** The same page with each item mapped (a row to what the API shows of it). */
  map<U>(mapItem: (item: T) => U): Page<U> {
    return new Page(this.items.map(mapItem), this.nextCursor);
  }

  writeHeaders(response: Response): T[] {
    if (this.nextCursor !== undefined) {
      const request = response.req;
      const url = new URL(absoluteUrl(request, request.originalUrl));
      url.searchParams.set('cursor', this.nextCursor);
      response.append('Link', `<${url.href}>; rel="next"`);
    }
    return this.items;
  }
}

/**
 * One page of a listing in ascending id order: `read` is the repository's keyset query (`id >
 * afterId ORDER BY id LIMIT n`), asked for one more row than the page holds to learn whether more
 * follow. The cursor names the listing and its filter, so it cannot be carried to another.
 */
export async function readPage<T extends { id: number }>(
  listing: string,
  { limit, cursor }: PageQuery,
  filter: ListFilter,
  read: (afterId: number, limit: number) => Promise<T[]>,
): Promise<Page<T>> {
  const afterId = cursor === undefined ? 0 : decodeCursor(cursor, listing, filter);
  const found = await read(afterId, limit + 1);
  if (found.length <= limit) return new Page(found);
  // The row past the page only said that more follow.
  found.length = limit;
  return new Page(found, encodeCursor(found[limit - 1].id, listing, filter));
}

/** The document's description of the Link header of a page. */
export const NEXT_PAGE_LINK_HEADER: HeadersObject = {
  Link: {
    description: 'Present when more items follow: `<absolute URL of the next page>; rel="next"` (RFC 8288).',
    schema: { type: 'string' },
  },
};
