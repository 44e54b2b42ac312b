"""The clients: PetStore (sync) and AsyncPetStore (asyncio), of the same surface."""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import TracebackType

import httpx

from ._transport import AsyncTransport, SyncTransport, Timeout, TransportOptions, checked_max_retries, checked_timeout, with_headers
from ._webhooks import Webhooks, webhooks
from .resources.events import AsyncEvents, Events
from .resources.pets import AsyncPets, Pets
from .resources.requests import AsyncRequests, Requests
from .resources.sandboxes import AsyncSandboxes, Sandboxes
from .resources.store import AsyncStore, Store
from .resources.webhook_endpoints import AsyncWebhookEndpoints, WebhookEndpoints

DEFAULT_BASE_URL = "http://127.0.0.1:3000/v1"
"""The first server of the service's committed document (openapi.json): a service started with its defaults."""


def _options(
    api_key: str | None,
    base_url: str | None,
    max_retries: int,
    timeout: Timeout,
    max_retry_after: float,
    extra_headers: Mapping[str, str] | None,
) -> TransportOptions:
    """The options given, else the environment's (an empty variable counts as unset), checked once."""
    key = api_key or os.environ.get("PETSTORE_API_KEY")
    if not key:
        raise ValueError("PetStore needs an API key: give api_key=, or set PETSTORE_API_KEY.")
    if isinstance(max_retry_after, bool) or not max_retry_after >= 0:
        raise ValueError(f"max_retry_after must be 0 seconds or more (got {max_retry_after!r}).")
    base = base_url or os.environ.get("PETSTORE_BASE_URL") or DEFAULT_BASE_URL
    return TransportOptions(
        api_key=key,
        base_url=base.rstrip("/"),
        max_retries=checked_max_retries(max_retries),
        timeout=checked_timeout(timeout),
        max_retry_after=max_retry_after,
        extra_headers=dict(extra_headers or {}),
    )


class PetStore:
    """The Pet Store API. `PetStore()` reads PETSTORE_API_KEY and PETSTORE_BASE_URL.

    Every method raises a PetStoreError subclass when the call fails, and takes the call's own
    `timeout=`, `max_retries=` and `extra_headers=` over these. `max_retries` (2) is how many times
    a call is retried when a retry is safe and may help; `timeout` (30 s, or an httpx.Timeout) is
    how long an attempt may wait to connect and for each part of the answer; `max_retry_after`
    (30 s) the longest Retry-After a call waits for before it retries (asked for longer, it raises
    at once, with `retry_after`, for you to choose); `extra_headers` are sent with every call.
    `http_client` is an httpx.Client of your own (proxies, certificates); one of the client's own
    is closed by `close()` or `with`.
    """

    webhooks: Webhooks = webhooks
    """Checks a delivery's signature (also `from petstore import webhooks`: a receiver needs no API key)."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 2,
        timeout: Timeout = 30.0,
        max_retry_after: float = 30.0,
        extra_headers: Mapping[str, str] | None = None,
        http_client: httpx.Client | None = None,
    ) -> None:
        options = _options(api_key, base_url, max_retries, timeout, max_retry_after, extra_headers)
        self._transport = SyncTransport(options, http_client)
        self.pets = Pets(self._transport)
        self.store = Store(self._transport)
        self.webhook_endpoints = WebhookEndpoints(self._transport)
        self.events = Events(self._transport)
        self.requests = Requests(self._transport)
        """The request log: what the service answered this key's calls; an error's `request_id` finds its call there."""
        self.sandboxes = Sandboxes(self._transport, lambda sandbox_key: self.with_options(api_key=sandbox_key))
        """Environments of their own for tests (a live key manages them); `for_test()` makes one with a client bound to it."""

    def with_options(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int | None = None,
        timeout: Timeout | None = None,
        max_retry_after: float | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> PetStore:
        """A client of these options over this one's (extra_headers added to its own), on this one's connections.

        `petstore.with_options(timeout=5, max_retries=0).pets.list()`. Closing it leaves the
        connections open: they are this client's to close.
        """
        mine = self._transport.options
        return PetStore(
            api_key=api_key or mine.api_key,
            base_url=base_url or mine.base_url,
            max_retries=mine.max_retries if max_retries is None else max_retries,
            timeout=mine.timeout if timeout is None else timeout,
            max_retry_after=mine.max_retry_after if max_retry_after is None else max_retry_after,
            extra_headers=with_headers(mine.extra_headers, extra_headers or {}),
            http_client=self._transport.client,
        )

    def close(self) -> None:
        self._transport.close()

    def __enter__(self) -> PetStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


class AsyncPetStore:
    """The Pet Store API for asyncio: PetStore's surface, its calls awaited and its listings `async for`.

    `http_client` is an httpx.AsyncClient of your own; one of the client's own is closed by
    `await close()` or `async with`.
    """

    webhooks: Webhooks = webhooks
    """Checks a delivery's signature (also `from petstore import webhooks`: a receiver needs no API key)."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 2,
        timeout: Timeout = 30.0,
        max_retry_after: float = 30.0,
        extra_headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        options = _options(api_key, base_url, max_retries, timeout, max_retry_after, extra_headers)
        self._transport = AsyncTransport(options, http_client)
        self.pets = AsyncPets(self._transport)
        self.store = AsyncStore(self._transport)
        self.webhook_endpoints = AsyncWebhookEndpoints(self._transport)
        self.events = AsyncEvents(self._transport)
        self.requests = AsyncRequests(self._transport)
        """The request log: what the service answered this key's calls; an error's `request_id` finds its call there."""
        self.sandboxes = AsyncSandboxes(self._transport, lambda sandbox_key: self.with_options(api_key=sandbox_key))
        """Environments of their own for tests (a live key manages them); `for_test()` makes one with a client bound to it."""

    def with_options(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int | None = None,
        timeout: Timeout | None = None,
        max_retry_after: float | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPetStore:
        """A client of these options over this one's (extra_headers added to its own), on this one's connections.

        Closing it leaves the connections open: they are this client's to close.
        """
        mine = self._transport.options
        return AsyncPetStore(
            api_key=api_key or mine.api_key,
            base_url=base_url or mine.base_url,
            max_retries=mine.max_retries if max_retries is None else max_retries,
            timeout=mine.timeout if timeout is None else timeout,
            max_retry_after=mine.max_retry_after if max_retry_after is None else max_retry_after,
            extra_headers=with_headers(mine.extra_headers, extra_headers or {}),
            http_client=self._transport.client,
        )

    async def close(self) -> None:
        await self._transport.close()

    async def __aenter__(self) -> AsyncPetStore:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self.close()
