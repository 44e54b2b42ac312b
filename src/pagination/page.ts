import { type CallHandler, type ExecutionContext, type NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { HeadersObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { absoluteUrl } from '../server/request-origin.js';
import { decodeCursor, encodeCursor, type ListFilter } from './cursor.js';
import type { PageQuery } from './page-query.dto.js';

/** One page of a listing, as a service returns it; a route marked @ListsPages() answers its items. */
export interface Page<T> {
  readonly items: T[];
  /** Set when more items follow this page. */
  readonly nextCursor?: string;
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
  if (found.length <= limit) return { items: found };
  const items = found.slice(0, limit);
  return { items, nextCursor: encodeCursor(items[items.length - 1].id, listing, filter) };
}

/**
 * A listing route: its handler returns a Page, the client gets the page's items and, when more
 * follow, RFC 8288 `Link: <absolute URL of the next page>; rel="next"` (the request's URL with the
 * next cursor). The one place a listing's Link header is written.
 */
export function ListsPages(): MethodDecorator {
  return UseInterceptors(NextPageLink);
}

class NextPageLink implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler<Page<unknown>>): Observable<unknown[]> {
    return next.handle().pipe(
      map(({ items, nextCursor }) => {
        if (nextCursor !== undefined) {
          const request = context.switchToHttp().getRequest<Request>();
          const url = new URL(absoluteUrl(request, request.originalUrl));
          url.searchParams.set('cursor', nextCursor);
          context.switchToHttp().getResponse<Response>().append('Link', `<${url.href}>; rel="next"`);
        }
        return items;
      }),
    );
  }
}

/** The document's description of the Link header of a page. */
export const NEXT_PAGE_LINK_HEADER: HeadersObject = {
  Link: {
    description: 'Present when more items follow: `<absolute URL of the next page>; rel="next"` (RFC 8288).',
    schema: { type: 'string' },
  },
};
