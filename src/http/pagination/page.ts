import type { HeadersObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { type FindOptionsOrder, type FindOptionsWhere, MoreThan, type ObjectLiteral, type Repository } from 'typeorm';
import { decodeCursor, encodeCursor, type ListFilter } from './cursor.js';
import { requestOrigin } from '../request-origin.js';
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
  repository: Repository<T>,
  { limit, cursor }: PageQuery,
  filter: ListFilter,
): Promise<Page<T>> {
  const where: Record<string, unknown> = {};
  // TypeORM rejects undefined in a where clause: only the filters that were given go in.
  for (const [column, value] of Object.entries(filter)) if (value !== undefined) where[column] = value;
  const listing = repository.metadata.tableName;
  if (cursor !== undefined) where.id = MoreThan(decodeCursor(cursor, listing, filter));

  const rows = await repository.find({
    where: where as FindOptionsWhere<T>,
    order: { id: 'ASC' } as FindOptionsOrder<T>,
    take: limit + 1,
  });
  const items = rows.slice(0, limit);
  return rows.length > limit ? { items, nextCursor: encodeCursor(items[items.length - 1].id, listing, filter) } : { items };
}

/** RFC 8288 `Link: <absolute URL of the next page>; rel="next"`, keeping the request's query. */
export function linkNextPage(request: Request, response: Response, nextCursor: string | undefined): void {
  if (nextCursor === undefined) return;
  const next = new URL(request.originalUrl, requestOrigin(request));
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
