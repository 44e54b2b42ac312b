"""Sends the API's requests, sync or async, over httpx: the key, a time-out, and retries where safe.

A call is retried when a retry is safe and may help: no answer at all, 409 IDEMPOTENCY_KEY_IN_USE,
429, 502, 503 and 504. It waits the Retry-After the service asked for (one over `max_retry_after`
is raised at once: a retry sooner than asked would only be refused again), else backs off
exponentially with jitter. A POST or a PATCH is retried only with its Idempotency-Key (every create,
change and cancel of this client has one), so that a lost answer never makes a second pet nor
changes one twice; any other 4xx, and 500, is never retried. A 304 (the call sent If-None-Match) is
no error: it answers NOT_MODIFIED. Each attempt, answer and wait is logged (_logging.py).
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
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, Union, cast

import httpx

from ._api_model import ApiModel
from ._errors import ConnectionError, PetStoreError, TimeoutError, error_of_answer
from ._logging import logger
from ._not_modified import NOT_MODIFIED
from ._version import __version__

T = TypeVar("T")

Timeout = Union[float, httpx.Timeout]
"""Seconds an attempt may wait to connect and for each part of the answer, or an httpx.Timeout of each."""

MERGE_PATCH = "application/merge-patch+json"
"""The media type of a JSON Merge Patch (RFC 7396), which the service reads as JSON."""

FIRST_BACKOFF_SECONDS = 0.5
MAX_BACKOFF_SECONDS = 8.0


@dataclass(frozen=True)
class TransportOptions:
    api_key: str
    base_url: str
    max_retries: int
    timeout: Timeout
    max_retry_after: float
    """The longest Retry-After a call waits for, in seconds."""
    extra_headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CallOptions:
    """What one call may set for itself, over the client's options (None: the client's)."""

    timeout: Timeout | None = None
    max_retries: int | None = None
    extra_headers: Mapping[str, str] | None = None


QueryValue = Union[str, int, Mapping[str, str], None]
"""A query parameter's value: a mapping is an object parameter (a listing's `metadata` filter)."""


@dataclass(frozen=True)
class ApiRequest(Generic[T]):
    """A request to the API: the path under the base URL (`/pets`), its query and JSON body, and how to read the answer."""

    method: Literal["GET", "POST", "PATCH", "DELETE"]
    path: str
    parse: Callable[[Any], T]
    query: Mapping[str, QueryValue] = field(default_factory=dict)
    """Its parameters; None leaves one out, a mapping is sent as `name[key]=value` (OpenAPI's deepObject)."""
    body: Mapping[str, Any] | None = None
    content_type: str = "application/json"
    """The body's media type: a PATCH's is `application/merge-patch+json`."""
    idempotency_key: str | None = None
    """Sent on the first attempt and on every retry, so that a create or a change happens once."""
    if_match: str | None = None
    """The ETag a change is held to: 412 PRECONDITION_FAILED, nothing changed, when it is no longer current."""
    if_none_match: str | None = None
    """The ETag held: a 304 answers NOT_MODIFIED (parse's type must allow it)."""


@dataclass(frozen=True)
class RawResponse(Generic[T]):
    """What the API answered a call: its status and headers, beside the result the call itself gives."""

    data: T
    """The result, as the call itself answers it."""
    status: int
    headers: httpx.Headers
    """X-Request-Id, ETag, RateLimit, Location and Idempotent-Replayed on a create or a replayed change, Deprecation and Sunset, …"""
    request_id: str | None
    """The answer's X-Request-Id: quote it to support."""


# The answers a `with_raw_response` call is collecting (_raw_response.py), in the context of its thread or task.
ANSWERS: ContextVar[list[RawResponse[Any]] | None] = ContextVar("petstore_answers", default=None)


@dataclass(frozen=True)
class Call:
    """One call as it is sent: the client's options with the call's own over them."""

    label: str
    """`METHOD /path?query`, as the log names the call."""
    request: dict[str, Any]
    """The arguments of httpx's `request` for each attempt."""
    attempts: int
    timeout: Timeout
    idempotency_key: str | None


class Transport:
    """What the sync and async transports share: how a call is made, read, logged and retried."""

    def __init__(self, options: TransportOptions) -> None:
        self.options = options

    def call(self, request: ApiRequest[Any], options: CallOptions) -> Call:
        headers = {
            "Authorization": f"Bearer {self.options.api_key}",
            "Accept": "application/json",
            "User-Agent": f"petstore-python/{__version__}",
        }
        content = None
        if request.body is not None:
            headers["Content-Type"] = request.content_type
            content = json.dumps(request.body, ensure_ascii=False, separators=(",", ":")).encode()
        if request.idempotency_key is not None:
            headers["Idempotency-Key"] = request.idempotency_key
        if request.if_match is not None:
            headers["If-Match"] = request.if_match
        if request.if_none_match is not None:
            headers["If-None-Match"] = request.if_none_match
        params: dict[str, str] = {}
        for name, value in request.query.items():
            if isinstance(value, Mapping):
                params.update({f"{name}[{key}]": member for key, member in value.items()})
            elif value is not None:
                params[name] = str(value)
        timeout = checked_timeout(self.options.timeout if options.timeout is None else options.timeout)
        max_retries = checked_max_retries(self.options.max_retries if options.max_retries is None else options.max_retries)
        query = f"?{httpx.QueryParams(params)}" if params else ""
        return Call(
            label=f"{request.method} {request.path}{query}",
            request={
                "method": request.method,
                "url": self.options.base_url + request.path,
                "params": params,
                "headers": with_headers(with_headers(headers, self.options.extra_headers), options.extra_headers or {}),
                "content": content,
                "timeout": timeout,
            },
            attempts=max_retries + 1,
            timeout=timeout,
            idempotency_key=request.idempotency_key,
        )

    @staticmethod
    def sending(call: Call, attempt: int) -> float:
        """Logs the attempt about to be sent; answers when it started."""
        key = "" if call.idempotency_key is None else f", Idempotency-Key {call.idempotency_key}"
        logger.debug("%s: sending (attempt %d of %d%s)", call.label, attempt, call.attempts, key)
        return time.monotonic()

    @staticmethod
    def answer_of(request: ApiRequest[T], call: Call, attempt: int, response: httpx.Response, started: float) -> RawResponse[T]:
        """The parsed answer of a 2xx, NOT_MODIFIED for a 304, logged; the error of its status otherwise."""
        elapsed = round((time.monotonic() - started) * 1000)
        request_id = response.headers.get("x-request-id")
        etag = response.headers.get("etag")
        if response.status_code == 304:
            # What If-None-Match asked to be told: the representation held is current. Neither an error nor worth a retry.
            logger.info(
                "%s: 304 Not Modified in %d ms, request %s (attempt %d of %d)",
                call.label,
                elapsed,
                request_id or "unnamed",
                attempt,
                call.attempts,
            )
            return Transport.collected(RawResponse(cast(T, NOT_MODIFIED), 304, response.headers, request_id))
        try:
            body = json.loads(response.content) if response.content else None
        except ValueError:
            body = response.text
        error = None
        if not 200 <= response.status_code < 300:
            error = error_of_answer(response.status_code, body, response.headers.get("retry-after"), request_id, etag)
        status = " ".join(str(part) for part in (response.status_code, error and error.code) if part)
        named = (request_id if error is None else error.request_id) or "unnamed"
        logger.info("%s: %s in %d ms, request %s (attempt %d of %d)", call.label, status, elapsed, named, attempt, call.attempts)
        if error is not None:
            raise error
        try:
            data = request.parse(body)
        except (KeyError, TypeError, ValueError) as cause:
            raise PetStoreError(
                f"The answer to {request.method} {request.path} is not what the API's document says ({cause!r}).",
                status=response.status_code,
                request_id=request_id,
            ) from cause
        if isinstance(data, ApiModel):
            # Not fields of the frozen dataclass: to_wire(), asdict(), == and repr() leave them out.
            object.__setattr__(data, "_request_id", request_id)
            if etag is not None:
                object.__setattr__(data, "_etag", etag)
        return Transport.collected(RawResponse(data, response.status_code, response.headers, request_id))

    @staticmethod
    def collected(answer: RawResponse[T]) -> RawResponse[T]:
        """`answer`, kept for the `with_raw_response` call collecting answers, if any."""
        collecting = ANSWERS.get()
        if collecting is not None:
            collecting.append(answer)
        return answer

    @staticmethod
    def no_answer(call: Call, attempt: int, cause: httpx.TransportError, started: float) -> ConnectionError:
        error: ConnectionError
        if isinstance(cause, httpx.TimeoutException):
            error = TimeoutError(f"No answer within {describe_timeout(call.timeout)}: {call.label}.")
        else:
            error = ConnectionError(f"No answer: {call.label} ({type(cause).__name__}: {cause}).")
        elapsed = round((time.monotonic() - started) * 1000)
        logger.info("%s: no answer after %d ms, %s (attempt %d of %d)", call.label, elapsed, type(error).__name__, attempt, call.attempts)
        return error


class SyncTransport(Transport):
    def __init__(self, options: TransportOptions, http_client: httpx.Client | None) -> None:
        super().__init__(options)
        self.client = http_client or httpx.Client()
        self._owns_client = http_client is None

    def send(self, request: ApiRequest[T], options: CallOptions = CallOptions()) -> RawResponse[T]:
        call = self.call(request, options)
        attempt = 1
        while True:
            try:
                return self._attempt(request, call, attempt)
            except PetStoreError as error:
                delay = delay_before_retry(request, error, attempt - 1, call.attempts - 1, self.options.max_retry_after, call.label)
                if delay is None:
                    raise
            time.sleep(delay)
            attempt += 1

    def _attempt(self, request: ApiRequest[T], call: Call, attempt: int) -> RawResponse[T]:
        started = self.sending(call, attempt)
        try:
            response = self.client.request(**call.request)
        except httpx.TransportError as cause:
            raise self.no_answer(call, attempt, cause, started) from cause
        _no_delay(response)
        return self.answer_of(request, call, attempt, response, started)

    def close(self) -> None:
        if self._owns_client:
            self.client.close()


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


class AsyncTransport(Transport):
    def __init__(self, options: TransportOptions, http_client: httpx.AsyncClient | None) -> None:
        super().__init__(options)
        self.client = http_client or httpx.AsyncClient()
        self._owns_client = http_client is None

    async def send(self, request: ApiRequest[T], options: CallOptions = CallOptions()) -> RawResponse[T]:
        call = self.call(request, options)
        started = time.monotonic()
        attempt, doing = 1, "in attempt 1"
        try:
            while True:
                try:
                    return await self._attempt(request, call, attempt)
                except PetStoreError as error:
                    delay = delay_before_retry(request, error, attempt - 1, call.attempts - 1, self.options.max_retry_after, call.label)
                    if delay is None:
                        raise
                doing = f"waiting to retry after attempt {attempt}"
                await asyncio.sleep(delay)
                attempt += 1
                doing = f"in attempt {attempt}"
        except asyncio.CancelledError:
            # A task cancelled (task.cancel(), asyncio.timeout, wait_for), in flight or waiting to retry: said, and passed on.
            elapsed = round((time.monotonic() - started) * 1000)
            logger.info("%s: cancelled after %d ms, %s of %d", call.label, elapsed, doing, call.attempts)
            raise

    async def _attempt(self, request: ApiRequest[T], call: Call, attempt: int) -> RawResponse[T]:
        started = self.sending(call, attempt)
        try:
            response = await self.client.request(**call.request)
        except httpx.TransportError as cause:
            raise self.no_answer(call, attempt, cause, started) from cause
        return self.answer_of(request, call, attempt, response, started)

    async def close(self) -> None:
        if self._owns_client:
            await self.client.aclose()


def new_idempotency_key() -> str:
    """A key for a create or a change the caller gave none for: one per call, sent again on each of its retries."""
    return str(uuid.uuid4())


def with_headers(headers: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """`headers` with `extra` over them; a name given in another case replaces the header rather than doubling it."""
    merged = dict(headers)
    for name, value in extra.items():
        for existing in [existing for existing in merged if existing.lower() == name.lower()]:
            del merged[existing]
        merged[name] = value
    return merged


def checked_max_retries(max_retries: int) -> int:
    if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
        raise ValueError(f"max_retries must be a whole number of 0 or more (got {max_retries!r}).")
    return max_retries


def checked_timeout(timeout: Timeout) -> Timeout:
    if not isinstance(timeout, httpx.Timeout) and (isinstance(timeout, bool) or not timeout > 0):
        raise ValueError(f"timeout must be more than 0 seconds, or an httpx.Timeout (got {timeout!r}).")
    return timeout


def describe_timeout(timeout: Timeout) -> str:
    return repr(timeout) if isinstance(timeout, httpx.Timeout) else f"{timeout} s"


def delay_before_retry(
    request: ApiRequest[Any],
    error: PetStoreError,
    retries: int,
    max_retries: int,
    max_retry_after: float = 30.0,
    label: str | None = None,
) -> float | None:
    """Seconds to wait before retrying after `retries` retries, or None when the error is final; the wait logged."""
    if retries >= max_retries or not is_retryable(request, error):
        return None
    label = label or f"{request.method} {request.path}"
    next_attempt, attempts = retries + 2, max_retries + 1
    if error.retry_after is not None:
        if error.retry_after > max_retry_after:
            logger.info(
                "%s: not waiting the %d s Retry-After asks, over max_retry_after (%g s): %s raised",
                label,
                error.retry_after,
                max_retry_after,
                type(error).__name__,
            )
            return None
        logger.info("%s: waiting %d s, as Retry-After asks, before attempt %d of %d", label, error.retry_after, next_attempt, attempts)
        return float(error.retry_after)
    # 0.5 s, 1 s, 2 s, … up to 8 s, less up to half at random, so that clients failed together do not retry together.
    backoff = min(FIRST_BACKOFF_SECONDS * 2.0**retries, MAX_BACKOFF_SECONDS) * (1 - random.random() / 2)
    logger.info("%s: waiting %.2f s before attempt %d of %d", label, backoff, next_attempt, attempts)
    return backoff


def is_retryable(request: ApiRequest[Any], error: PetStoreError) -> bool:
    # Sent twice, a POST or a PATCH may happen twice (or be refused for what the first did), unless the service knows its key.
    if request.method in ("POST", "PATCH") and request.idempotency_key is None:
        return False
    if error.status is None:
        return True
    if error.status == 409:
        return error.code == "IDEMPOTENCY_KEY_IN_USE"
    return error.status in (429, 502, 503, 504)
