import type { Transport } from './transport.js';

/** One page of a listing: its items, and the way to the next page when there is one. */
export class Page<Item> {
  constructor(
    /** The items of this page, in ascending id order. */
    readonly data: Item[],
    private readonly next: (() => Promise<Page<Item>>) | undefined,
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
 * page fetched as the one before runs out, by following the `Link: rel="next"` header.
 */
export class PagePromise<Item> implements Promise<Page<Item>>, AsyncIterable<Item> {
  readonly [Symbol.toStringTag] = 'PagePromise';
  private first: Promise<Page<Item>> | undefined;

  constructor(private readonly load: () => Promise<Page<Item>>) {}

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
  private firstPage(): Promise<Page<Item>> {
    this.first ??= this.load();
    return this.first;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    for (let page: Page<Item> | undefined = await this; page; page = page.hasNextPage() ? await page.getNextPage() : undefined) {
      yield* page.data;
    }
  }
}

/**
 * Lists `path` with `query`, page by page. The next page's query (limit, status, cursor) is taken
 * from the `Link: rel="next"` URL and sent to this client's own base URL: the link names the
 * service's public address (PUBLIC_BASE_URL), which a client inside the network may not reach.
 */
export function listPages<Item>(transport: Transport, path: string, query: Record<string, string | number | undefined>): PagePromise<Item> {
  const load = async (pageQuery: Record<string, string | number | undefined>): Promise<Page<Item>> => {
    const { data, headers } = await transport.send<Item[]>({ method: 'GET', path, query: pageQuery });
    const next = nextPageQuery(headers.get('link'));
    return new Page(data, next && (() => load(next)));
  };
  return new PagePromise(() => load(query));
}

/** The query of the `rel="next"` target of a Link header (RFC 8288), if it has one. */
function nextPageQuery(link: string | null): Record<string, string> | undefined {
  for (const part of link?.split(',') ?? []) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel\s*=\s*"?next"?\s*(;|$)/i.test(match[2])) return Object.fromEntries(new URL(match[1]).searchParams);
  }
  return undefined;
}
