import type { HeadersObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { ObjectLiteral } from 'typeorm';
import type { LeanSelect } from '../../database/lean-select.js';
import { decodeCursor, encodeCursor, type ListFilter } from './cursor.js';
import { absoluteUrl } from '../request-origin.js';
import type { PageQuery } from './page-query.dto.js';

export interface Page<T> {
  readonly items: T[];
  /** Set when more items follow this page. */
  readonly nextCursor?: string;
}

/**
 * One page of a listing in ascending id order, as one keyset query (`id > cursor ORDER BY id
 * LIMIT n+1`) that an index on (filter columns, id) answers without scanning what came before.
 */
export async function findPage<T extends ObjectLiteral & { id: number }>(
  rows: LeanSelect<T>,
  { limit, cursor }: PageQuery,
  filter: ListFilter,
): Promise<Page<T>> {
  const listing = rows.tableName;
  const afterId = cursor === undefined ? undefined : decodeCursor(cursor, listing, filter);
  const found = await rows.find({ equal: filter, afterId, limit: limit + 1 });
  const items = found.slice(0, limit);
  return found.length > limit ? { items, nextCursor: encodeCursor(items[items.length - 1].id, listing, filter) } : { items };
}

/** RFC 8288 `Link: <absolute URL of the next page>; rel="next"`, keeping the request's query. */
export function linkNextPage(request: Request, response: Response, nextCursor: string | undefined): void {
  if (nextCursor === undefined) return;
  const next = new URL(absoluteUrl(request, request.originalUrl));
  next.searchParams.set('cursor', nextCursor);
  response.append('Link', `<${next.href}>; rel="next"`);
}

/** The document's description of the Link header of a page. */
export const NEXT_PAGE_LINK_HEADER: HeadersObject = {
  Link: {
    description: 'Present when more items follow: `<absolute URL of the next page>; rel="next"` (RFC 8288).',
    schema: { type: 'string' },
  },
};
