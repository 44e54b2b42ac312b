"""Listings page by page, following the `Link: <…>; rel="next"` header the service sends while more remain.

The next page's query (limit, status, metadata, cursor) is taken from the link and sent to this client's own
base URL: the link names the service's public address (PUBLIC_BASE_URL), which a client inside the
network may not reach.
"""

from __future__ import annotations

import re
from functools import partial
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterator, Mapping
from typing import Any, Generic, TypeVar, cast
from urllib.parse import parse_qsl, urlsplit

from ._not_modified import NOT_MODIFIED, NotModified
from ._transport import ApiRequest, AsyncTransport, CallOptions, QueryValue, SyncTransport

T = TypeVar("T")
Query = Mapping[str, QueryValue]


class Page(Generic[T]):
    """One page of a listing: its items in the listing's order (ascending id; the request log's newest first), and the way
    to the next page when there is one."""

    def __init__(
        self, data: list[T], next_page: Callable[[], Page[T]] | None, request_id: str | None = None, etag: str | None = None
    ) -> None:
        self.data = data
        self._next_page = next_page
        self._request_id = request_id
        """The X-Request-Id of this page's answer: quote it to support."""
        self._etag = etag
        """This page's ETag (of its items and its link to the next page): give it back as `if_none_match=`
        to list the same page again and be answered NOT_MODIFIED while it is as it was."""

    def has_next_page(self) -> bool:
        return self._next_page is not None

    def get_next_page(self) -> Page[T]:
        """The page after this one; raises RuntimeError when there is none (see has_next_page)."""
        if self._next_page is None:
            raise RuntimeError("This is the last page: has_next_page() is False.")
        return self._next_page()


class Pager(Generic[T]):
    """A listing. Iterated, every item of every page, each page requested as the one before runs out;
    `pages()` gives one page at a time, `first_page()` the first alone. Nothing is requested before."""

    def __init__(self, first_page: Callable[[], Page[T]]) -> None:
        self._first_page = first_page

    def first_page(self) -> Page[T]:
        return self._first_page()

    def pages(self) -> Iterator[Page[T]]:
        page = self.first_page()
        yield page
        while page.has_next_page():
            page = page.get_next_page()
            yield page

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.data


class AsyncPage(Generic[T]):
    """One page of a listing: its items in the listing's order (ascending id; the request log's newest first), and the way
    to the next page when there is one."""

    def __init__(
        self,
        data: list[T],
        next_page: Callable[[], Awaitable[AsyncPage[T]]] | None,
        request_id: str | None = None,
        etag: str | None = None,
    ) -> None:
        self.data = data
        self._next_page = next_page
        self._request_id = request_id
        """The X-Request-Id of this page's answer: quote it to support."""
        self._etag = etag
        """This page's ETag (of its items and its link to the next page): give it back as `if_none_match=`
        to list the same page again and be answered NOT_MODIFIED while it is as it was."""

    def has_next_page(self) -> bool:
        return self._next_page is not None

    async def get_next_page(self) -> AsyncPage[T]:
        """The page after this one; raises RuntimeError when there is none (see has_next_page)."""
        if self._next_page is None:
            raise RuntimeError("This is the last page: has_next_page() is False.")
        return await self._next_page()


class AsyncPager(Generic[T]):
    """A listing. `async for` gives every item of every page, each page requested as the one before
    runs out; `pages()` gives one page at a time; awaited (or `first_page()`), the first page alone."""

    def __init__(self, first_page: Callable[[], Awaitable[AsyncPage[T]]]) -> None:
        self._first_page = first_page

    async def first_page(self) -> AsyncPage[T]:
        return await self._first_page()

    def __await__(self) -> Generator[Any, None, AsyncPage[T]]:
        return self.first_page().__await__()

    async def pages(self) -> AsyncIterator[AsyncPage[T]]:
        page = await self.first_page()
        yield page
        while page.has_next_page():
            page = await page.get_next_page()
            yield page

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in page.data:
                yield item


def list_pages(transport: SyncTransport, path: str, query: Query, parse_item: Callable[[Any], T], options: CallOptions) -> Pager[T]:
    """Lists `path` with `query`, page by page, each page's request with the call's `options`."""
    return Pager(partial(_page, transport, path, query, parse_item, options))


def first_page_if_changed(
    transport: SyncTransport, path: str, query: Query, parse_item: Callable[[Any], T], options: CallOptions, if_none_match: str | None
) -> Page[T] | NotModified:
    """The first page of `path`, asked for with `If-None-Match: if_none_match` (when not None): NOT_MODIFIED while that
    page is as it was, else the page as it is now, whose next pages are asked for without condition."""
    return _page_or_not_modified(transport, path, query, parse_item, options, if_none_match)


def _page(transport: SyncTransport, path: str, page_query: Query, parse_item: Callable[[Any], T], options: CallOptions) -> Page[T]:
    """A page asked for without If-None-Match, which is never NOT_MODIFIED."""
    return cast(Page[T], _page_or_not_modified(transport, path, page_query, parse_item, options, None))


def _page_or_not_modified(
    transport: SyncTransport,
    path: str,
    page_query: Query,
    parse_item: Callable[[Any], T],
    options: CallOptions,
    if_none_match: str | None,
) -> Page[T] | NotModified:
    request: ApiRequest[list[T] | NotModified] = ApiRequest(
        "GET", path, lambda wire: [parse_item(item) for item in wire], page_query, if_none_match=if_none_match
    )
    answer = transport.send(request, options)
    if answer.data is NOT_MODIFIED:
        return NOT_MODIFIED
    next_query = next_page_query(answer.headers.get("link"))
    next_page = None if next_query is None else partial(_page, transport, path, next_query, parse_item, options)
    return Page(answer.data, next_page, answer.request_id, answer.headers.get("etag"))


def list_async_pages(
    transport: AsyncTransport, path: str, query: Query, parse_item: Callable[[Any], T], options: CallOptions
) -> AsyncPager[T]:
    """Lists `path` with `query`, page by page, each page's request with the call's `options`."""
    return AsyncPager(partial(_async_page, transport, path, query, parse_item, options))


async def async_first_page_if_changed(
    transport: AsyncTransport,
    path: str,
    query: Query,
    parse_item: Callable[[Any], T],
    options: CallOptions,
    if_none_match: str | None,
) -> AsyncPage[T] | NotModified:
    """The first page of `path`, asked for with `If-None-Match: if_none_match` (when not None): NOT_MODIFIED while that
    page is as it was, else the page as it is now, whose next pages are asked for without condition."""
    return await _async_page_or_not_modified(transport, path, query, parse_item, options, if_none_match)


async def _async_page(
    transport: AsyncTransport, path: str, page_query: Query, parse_item: Callable[[Any], T], options: CallOptions
) -> AsyncPage[T]:
    """A page asked for without If-None-Match, which is never NOT_MODIFIED."""
    return cast(AsyncPage[T], await _async_page_or_not_modified(transport, path, page_query, parse_item, options, None))


async def _async_page_or_not_modified(
    transport: AsyncTransport,
    path: str,
    page_query: Query,
    parse_item: Callable[[Any], T],
    options: CallOptions,
    if_none_match: str | None,
) -> AsyncPage[T] | NotModified:
    request: ApiRequest[list[T] | NotModified] = ApiRequest(
        "GET", path, lambda wire: [parse_item(item) for item in wire], page_query, if_none_match=if_none_match
    )
    answer = await transport.send(request, options)
    if answer.data is NOT_MODIFIED:
        return NOT_MODIFIED
    next_query = next_page_query(answer.headers.get("link"))
    next_page = None if next_query is None else partial(_async_page, transport, path, next_query, parse_item, options)
    return AsyncPage(answer.data, next_page, answer.request_id, answer.headers.get("etag"))


_LINK = re.compile(r"<([^>]*)>([^<]*)")
_REL = re.compile(r';\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))', re.IGNORECASE)


def next_page_query(link: str | None) -> dict[str, str] | None:
    """The query of the `rel="next"` target of a Link header (RFC 8288), if it has one."""
    for match in _LINK.finditer(link or ""):
        rel = _REL.search(match.group(2))
        if rel and "next" in (rel.group(1) or rel.group(2)).lower().split():
            return dict(parse_qsl(urlsplit(match.group(1)).query, keep_blank_values=True))
    return None
