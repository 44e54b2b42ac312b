"""The clients: PetStore (sync) and AsyncPetStore (asyncio), of the same surface."""

from __future__ import annotations

import os
from types import TracebackType

import httpx

from ._transport import AsyncTransport, SyncTransport, TransportOptions
from ._webhooks import Webhooks, webhooks
from .resources.events import AsyncEvents, Events
from .resources.pets import AsyncPets, Pets
from .resources.store import AsyncStore, Store
from .resources.webhook_endpoints import AsyncWebhookEndpoints, WebhookEndpoints

DEFAULT_BASE_URL = "http://127.0.0.1:3000/v1"
"""The first server of the service's committed document (openapi.json): a service started with its defaults."""


def _options(api_key: str | None, base_url: str | None, max_retries: int, timeout: float) -> TransportOptions:
    """The options given, else the environment's (an empty variable counts as unset), checked once."""
    key = api_key or os.environ.get("PETSTORE_API_KEY")
    if not key:
        raise ValueError("PetStore needs an API key: give api_key=, or set PETSTORE_API_KEY.")
    if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
        raise ValueError(f"max_retries must be a whole number of 0 or more (got {max_retries!r}).")
    if not timeout > 0:
        raise ValueError(f"timeout must be more than 0 seconds (got {timeout!r}).")
    base = base_url or os.environ.get("PETSTORE_BASE_URL") or DEFAULT_BASE_URL
    return TransportOptions(api_key=key, base_url=base.rstrip("/"), max_retries=max_retries, timeout=timeout)


class PetStore:
    """The Pet Store API. `PetStore()` reads PETSTORE_API_KEY and PETSTORE_BASE_URL.

    Every method raises a PetStoreError subclass when the call fails. `max_retries` (2) is how many
    times a call is retried when a retry is safe and may help; `timeout` (30 s) is how long an
    attempt may wait to connect and for each part of the answer. `http_client` is an httpx.Client of
    your own (proxies, certificates); one of the client's own is closed by `close()` or `with`.
    """

    webhooks: Webhooks = webhooks
    """Checks a delivery's signature (also `from petstore import webhooks`: a receiver needs no API key)."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 2,
        timeout: float = 30.0,
        http_client: httpx.Client | None = None,
    ) -> None:
        self._transport = SyncTransport(_options(api_key, base_url, max_retries, timeout), http_client)
        self.pets = Pets(self._transport)
        self.store = Store(self._transport)
        self.webhook_endpoints = WebhookEndpoints(self._transport)
        self.events = Events(self._transport)

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
        timeout: float = 30.0,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self._transport = AsyncTransport(_options(api_key, base_url, max_retries, timeout), http_client)
        self.pets = AsyncPets(self._transport)
        self.store = AsyncStore(self._transport)
        self.webhook_endpoints = AsyncWebhookEndpoints(self._transport)
        self.events = AsyncEvents(self._transport)

    async def close(self) -> None:
        await self._transport.close()

    async def __aenter__(self) -> AsyncPetStore:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self.close()
