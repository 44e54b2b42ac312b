"""The request log: the requests your API key made, as the service answered them (every change and
every failure; successful reads too where the operator keeps them), for REQUEST_LOG_DAYS days.
Reading needs a key with `requests:read`; an id not in your key's log raises NotFoundError
(REQUEST_NOT_FOUND). Every error the client raises has the `request_id` to look its call up by.

Every method also takes the call's own `timeout=`, `max_retries=` and `extra_headers=`, over the
client's; `with_raw_response` has each method answering the whole answer (RawResponse).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import overload
from urllib.parse import quote

from .._errors import NotFoundError
from .._models import RequestLogEntry
from .._not_modified import NotModified
from .._pagination import AsyncPager, Pager, list_async_pages, list_pages
from .._raw_response import async_raw, async_raw_first_page, raw, raw_first_page
from .._transport import ApiRequest, AsyncTransport, CallOptions, QueryValue, SyncTransport, Timeout

LOOK_AGAIN_SECONDS = 0.1
"""How often a look-up that waits asks again for an entry not yet written."""


def _query(status: int | str | None, operation: str | None, idempotency_key: str | None, limit: int | None) -> dict[str, QueryValue]:
    return {"status": status, "operation": operation, "idempotencyKey": idempotency_key, "limit": limit}


def _get(request_id: str, if_none_match: str | None) -> ApiRequest[RequestLogEntry | NotModified]:
    return ApiRequest("GET", f"/requests/{quote(request_id, safe='')}", RequestLogEntry.from_wire, if_none_match=if_none_match)


def _deadline(wait: float) -> float:
    if isinstance(wait, bool) or not wait >= 0:
        raise ValueError(f"wait must be 0 seconds or more (got {wait!r}).")
    return time.monotonic() + wait


def _look_again_in(error: NotFoundError, deadline: float) -> float | None:
    """Seconds until the next look-up of an entry not found yet, or None when `error` is final."""
    left = deadline - time.monotonic()
    if error.code != "REQUEST_NOT_FOUND" or left <= 0:
        return None
    return min(LOOK_AGAIN_SECONDS, left)


class Requests:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = RequestsWithRawResponse(self)

    def list(
        self,
        *,
        status: int | str | None = None,
        operation: str | None = None,
        idempotency_key: str | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pager[RequestLogEntry]:
        """Newest first, or those of one status (`404`, or a class: `"4xx"`), one operation (an operationId:
        `"createPet"`) or one Idempotency-Key."""
        options = CallOptions(timeout, max_retries, extra_headers)
        query = _query(status, operation, idempotency_key, limit)
        return list_pages(self._transport, "/requests", query, RequestLogEntry.from_wire, options)

    @overload
    def get(
        self,
        request_id: str,
        *,
        wait: float = 0,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RequestLogEntry: ...

    @overload
    def get(
        self,
        request_id: str,
        *,
        if_none_match: str | None,
        wait: float = 0,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RequestLogEntry | NotModified: ...

    def get(
        self,
        request_id: str,
        *,
        if_none_match: str | None = None,
        wait: float = 0,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RequestLogEntry | NotModified:
        """One request by its id (its X-Request-Id, an error's `request_id`).

        An entry is written within a second of its request: `wait=` (seconds) asks again until then
        while it is not found, for a call that just failed: `petstore.requests.get(e.request_id, wait=2)`.
        With `if_none_match=` (its `_etag`): NOT_MODIFIED while it is current.
        """
        options = CallOptions(timeout, max_retries, extra_headers)
        deadline = _deadline(wait)
        while True:
            try:
                return self._transport.send(_get(request_id, if_none_match), options).data
            except NotFoundError as error:
                delay = _look_again_in(error, deadline)
                if delay is None:
                    raise
            time.sleep(delay)


class RequestsWithRawResponse:
    """`requests.with_raw_response`: Requests' methods answering the whole answer, a listing its first page's."""

    def __init__(self, requests: Requests) -> None:
        self.list = raw_first_page(requests.list)
        self.get = raw(requests.get)


class AsyncRequests:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = AsyncRequestsWithRawResponse(self)

    def list(
        self,
        *,
        status: int | str | None = None,
        operation: str | None = None,
        idempotency_key: str | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPager[RequestLogEntry]:
        """Newest first, or those of one status (`404`, or a class: `"4xx"`), one operation (an operationId:
        `"createPet"`) or one Idempotency-Key."""
        options = CallOptions(timeout, max_retries, extra_headers)
        query = _query(status, operation, idempotency_key, limit)
        return list_async_pages(self._transport, "/requests", query, RequestLogEntry.from_wire, options)

    @overload
    async def get(
        self,
        request_id: str,
        *,
        wait: float = 0,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RequestLogEntry: ...

    @overload
    async def get(
        self,
        request_id: str,
        *,
        if_none_match: str | None,
        wait: float = 0,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RequestLogEntry | NotModified: ...

    async def get(
        self,
        request_id: str,
        *,
        if_none_match: str | None = None,
        wait: float = 0,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RequestLogEntry | NotModified:
        """One request by its id (its X-Request-Id, an error's `request_id`).

        An entry is written within a second of its request: `wait=` (seconds) asks again until then
        while it is not found, for a call that just failed: `await petstore.requests.get(e.request_id, wait=2)`.
        With `if_none_match=` (its `_etag`): NOT_MODIFIED while it is current.
        """
        options = CallOptions(timeout, max_retries, extra_headers)
        deadline = _deadline(wait)
        while True:
            try:
                return (await self._transport.send(_get(request_id, if_none_match), options)).data
            except NotFoundError as error:
                delay = _look_again_in(error, deadline)
                if delay is None:
                    raise
            await asyncio.sleep(delay)


class AsyncRequestsWithRawResponse:
    """`requests.with_raw_response`: AsyncRequests' methods answering the whole answer, a listing its first page's."""

    def __init__(self, requests: AsyncRequests) -> None:
        self.list = async_raw_first_page(requests.list)
        self.get = async_raw(requests.get)
