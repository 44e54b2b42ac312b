"""Sends the API's requests, sync or async, over httpx: the key, a time-out, and retries where safe.

A call is retried when a retry is safe and may help: no answer at all, 409 IDEMPOTENCY_KEY_IN_USE,
429, 502, 503 and 504. It waits the Retry-After the service asked for, else backs off exponentially
with jitter. A POST is retried only with its Idempotency-Key (every create of this client has one),
so that a lost answer never makes a second pet; any other 4xx, and 500, is never retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

import httpx

from ._errors import ConnectionError, PetStoreError, TimeoutError, error_of_answer
from ._version import __version__

T = TypeVar("T")

# A Retry-After longer than this is not waited for: the error is raised at once, with its retry_after,
# rather than the call hanging (a retry sooner than asked would only be refused again).
MAX_RETRY_AFTER_SECONDS = 30
FIRST_BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 8.0


@dataclass(frozen=True)
class TransportOptions:
    api_key: str
    base_url: str
    max_retries: int
    timeout: float


@dataclass(frozen=True)
class ApiRequest(Generic[T]):
    """A request to the API: the path under the base URL (`/pets`), its query and JSON body, and how to read the answer."""

    method: Literal["GET", "POST", "DELETE"]
    path: str
    parse: Callable[[Any], T]
    query: Mapping[str, str | int | None] = field(default_factory=dict)
    body: Mapping[str, Any] | None = None
    idempotency_key: str | None = None
    """Sent on the first attempt and on every retry, so that a create happens once."""


@dataclass(frozen=True)
class ApiAnswer(Generic[T]):
    """What the API answered: the parsed body, and the headers (for Link)."""

    data: T
    headers: httpx.Headers


class SyncTransport:
    def __init__(self, options: TransportOptions, http_client: httpx.Client | None) -> None:
        self.options = options
        self._client = http_client or httpx.Client()
        self._owns_client = http_client is None

    def send(self, request: ApiRequest[T]) -> ApiAnswer[T]:
        retries = 0
        while True:
            try:
                return self._attempt(request)
            except PetStoreError as error:
                delay = delay_before_retry(request, error, retries, self.options.max_retries)
                if delay is None:
                    raise
            time.sleep(delay)
            retries += 1

    def _attempt(self, request: ApiRequest[T]) -> ApiAnswer[T]:
        try:
            response = self._client.request(**outgoing(self.options, request))
        except httpx.TransportError as cause:
            raise no_answer(self.options, request, cause) from cause
        _no_delay(response)
        return answer_of(request, response)

    def close(self) -> None:
        if self._owns_client:
            self._client.close()


def _no_delay(response: httpx.Response) -> None:
    """Turns Nagle's algorithm off on the answer's connection, for the requests it carries next.

    httpcore before 0.17 (under Debian 12's httpx 0.23) leaves it on for sync sockets and writes a
    request's headers and body apart, so each POST waited for the service's delayed ACK: 40 ms, 25
    times the create itself. Later versions, and the async client, turn it off themselves.
    """
    stream = response.extensions.get("network_stream")
    connection = stream.get_extra_info("socket") if stream is not None else None
    if isinstance(connection, socket.socket):
        with contextlib.suppress(OSError):
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class AsyncTransport:
    def __init__(self, options: TransportOptions, http_client: httpx.AsyncClient | None) -> None:
        self.options = options
        self._client = http_client or httpx.AsyncClient()
        self._owns_client = http_client is None

    async def send(self, request: ApiRequest[T]) -> ApiAnswer[T]:
        retries = 0
        while True:
            try:
                return await self._attempt(request)
            except PetStoreError as error:
                delay = delay_before_retry(request, error, retries, self.options.max_retries)
                if delay is None:
                    raise
            await asyncio.sleep(delay)
            retries += 1

    async def _attempt(self, request: ApiRequest[T]) -> ApiAnswer[T]:
        try:
            response = await self._client.request(**outgoing(self.options, request))
        except httpx.TransportError as cause:
            raise no_answer(self.options, request, cause) from cause
        return answer_of(request, response)

    async def close(self) -> None:
        if self._owns_client:
            await self._client.aclose()


def new_idempotency_key() -> str:
    """A key for a create the caller gave none for: one per call, sent again on each of its retries."""
    return str(uuid.uuid4())


def outgoing(options: TransportOptions, request: ApiRequest[Any]) -> dict[str, Any]:
    """The arguments of httpx's `request` for one attempt."""
    headers = {
        "Authorization": f"Bearer {options.api_key}",
        "Accept": "application/json",
        "User-Agent": f"petstore-python/{__version__}",
    }
    content = None
    if request.body is not None:
        headers["Content-Type"] = "application/json"
        content = json.dumps(request.body, ensure_ascii=False, separators=(",", ":")).encode()
    if request.idempotency_key is not None:
        headers["Idempotency-Key"] = request.idempotency_key
    return {
        "method": request.method,
        "url": options.base_url + request.path,
        "params": {name: str(value) for name, value in request.query.items() if value is not None},
        "headers": headers,
        "content": content,
        "timeout": options.timeout,
    }


def answer_of(request: ApiRequest[T], response: httpx.Response) -> ApiAnswer[T]:
    """The parsed answer of a 2xx; the error of its status otherwise."""
    request_id = response.headers.get("x-request-id")
    try:
        body = json.loads(response.content) if response.content else None
    except ValueError:
        body = response.text
    if not 200 <= response.status_code < 300:
        raise error_of_answer(response.status_code, body, response.headers.get("retry-after"), request_id)
    try:
        return ApiAnswer(request.parse(body), response.headers)
    except (KeyError, TypeError, ValueError) as cause:
        raise PetStoreError(
            f"The answer to {request.method} {request.path} is not what the API's document says ({cause!r}).",
            status=response.status_code,
            request_id=request_id,
        ) from cause


def no_answer(options: TransportOptions, request: ApiRequest[Any], cause: httpx.TransportError) -> ConnectionError:
    call = f"{request.method} {request.path}"
    if isinstance(cause, httpx.TimeoutException):
        return TimeoutError(f"No answer within {options.timeout} s: {call}.")
    return ConnectionError(f"No answer: {call} ({type(cause).__name__}: {cause}).")


def delay_before_retry(request: ApiRequest[Any], error: PetStoreError, retries: int, max_retries: int) -> float | None:
    """Seconds to wait before retrying after `retries` retries, or None when the error is final."""
    if retries >= max_retries or not is_retryable(request, error):
        return None
    if error.retry_after is not None:
        return float(error.retry_after) if error.retry_after <= MAX_RETRY_AFTER_SECONDS else None
    backoff = min(FIRST_BACKOFF_SECONDS * 2.0**retries, MAX_BACKOFF_SECONDS)
    return backoff * (1 - random.random() / 2)


def is_retryable(request: ApiRequest[Any], error: PetStoreError) -> bool:
    if request.method == "POST" and request.idempotency_key is None:
        return False
    if error.status is None:
        return True
    if error.status == 409:
        return error.code == "IDEMPOTENCY_KEY_IN_USE"
    return error.status in (429, 502, 503, 504)
