import { ApiPromise, NOT_MODIFIED, type NotModified, type RawResponse } from './api-promise.js';
import type { QueryValue, RequestOptions, Transport } from './transport.js';

/** One page of a listing: its items, and the way to the next page when there is one. */
export class Page<Item> {
  constructor(
    /** The items of this page, in the listing's order: ascending id, the request log's newest first. */
    readonly data: Item[],
    private readonly next: (() => Promise<Page<Item>>) | undefined,
    /** The X-Request-Id of this page's answer: quote it to support. */
    readonly _request_id?: string,
    /**
     * This page's ETag (of its items and its link to the next page): give it back as `ifNoneMatch`
     * to list the same page again and be told NOT_MODIFIED while it is as it was.
     */
    readonly _etag?: string,
  ) {}

  hasNextPage(): boolean {
    return this.next !== undefined;
  }

  /** The page after this one; throws when there is none (see hasNextPage). */
  getNextPage(): Promise<Page<Item>> {
    if (!this.next) return Promise.reject(new Error('This is the last page: hasNextPage() is false.'));
    return this.next();
  }
}

/**
 * A listing: awaited, its first page; iterated with `for await`, every item of every page, each
 * page fetched as the one before runs out, by following the `Link: rel="next"` header;
 * `withResponse()`, the first page's whole answer.
 */
export class PagePromise<Item> implements Promise<Page<Item>>, AsyncIterable<Item> {
  readonly [Symbol.toStringTag] = 'PagePromise';
  private first: Promise<RawResponse<Page<Item>>> | undefined;

  constructor(private readonly load: () => Promise<RawResponse<Page<Item>>>) {}

  /** The first page's status, headers and request id, with the page as `data`. */
  withResponse(): Promise<RawResponse<Page<Item>>> {
    return this.firstAnswer();
  }

  then<Fulfilled = Page<Item>, Rejected = never>(
    onFulfilled?: ((page: Page<Item>) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  catch<Rejected = never>(onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null): Promise<Page<Item> | Rejected> {
    return this.firstPage().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<Item>> {
    return this.firstPage().finally(onFinally);
  }

  /** Requested once, when first awaited or iterated. */
  private firstAnswer(): Promise<RawResponse<Page<Item>>> {
    this.first ??= this.load();
    return this.first;
  }

  private firstPage(): Promise<Page<Item>> {
    return this.firstAnswer().then(({ data }) => data);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    for (let page: Page<Item> | undefined = await this; page; page = page.hasNextPage() ? await page.getNextPage() : undefined) {
      yield* page.data;
    }
  }
}

/**
 * Lists `path` with `query`, page by page, each page's request with the call's `options`, each item
 * read by `readItem`. The next page's query (limit, status, metadata, cursor) is taken from the
 * `Link: rel="next"` URL and sent to this client's own base URL: the link names the service's public
 * address (PUBLIC_BASE_URL), which a client inside the network may not reach.
 */
export function listPages<Item>(
  transport: Transport,
  path: string,
  query: PageQuery,
  options: RequestOptions,
  readItem: (item: Item) => Item = (item) => item,
): PagePromise<Item> {
  const load = pageLoader<Item>(transport, path, options, readItem);
  // Sent without If-None-Match, a page is never NOT_MODIFIED.
  return new PagePromise(() => load(query) as Promise<RawResponse<Page<Item>>>);
}

/**
 * The first page of a listing, asked for with `If-None-Match: ifNoneMatch` (a page's `_etag`):
 * NOT_MODIFIED while that page is as it was, else the page as it is now, whose next pages are
 * asked for without condition.
 */
export function listFirstPageIfChanged<Item>(
  transport: Transport,
  path: string,
  query: PageQuery,
  options: RequestOptions,
  ifNoneMatch: string | undefined,
  readItem: (item: Item) => Item = (item) => item,
): ApiPromise<Page<Item> | NotModified> {
  return new ApiPromise(pageLoader<Item>(transport, path, options, readItem)(query, ifNoneMatch));
}

type PageQuery = Readonly<Record<string, QueryValue>>;

/** Loads one page of `path`: the page with the way to the next, or NOT_MODIFIED when the If-None-Match sent holds. */
function pageLoader<Item>(transport: Transport, path: string, options: RequestOptions, readItem: (item: Item) => Item) {
  const load = async (pageQuery: PageQuery, ifNoneMatch?: string): Promise<RawResponse<Page<Item> | NotModified>> => {
    const answer = await transport.send<Item[] | NotModified>({ method: 'GET', path, query: pageQuery, ifNoneMatch }, options);
    if (answer.data === NOT_MODIFIED) return { ...answer, data: NOT_MODIFIED };
    const next = nextPageQuery(answer.headers.get('link'));
    const nextPage = next && (async () => (await load(next)).data as Page<Item>);
    const page = new Page(answer.data.map(readItem), nextPage, answer.requestId, answer.headers.get('etag') ?? undefined);
    return { ...answer, data: page };
  };
  return load;
}

/** The query of the `rel="next"` target of a Link header (RFC 8288), if it has one. */
function nextPageQuery(link: string | null): Record<string, string> | undefined {
  for (const part of link?.split(',') ?? []) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel\s*=\s*"?next"?\s*(;|$)/i.test(match[2])) return Object.fromEntries(new URL(match[1]).searchParams);
  }
  return undefined;
}
