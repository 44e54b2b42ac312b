"""Sandboxes: environments of their own for tests, each empty when made, none seeing live's data nor live theirs.

Managed with a live key (`psk_…`) holding `sandboxes:read` (list, get) and `sandboxes:write` (create;
delete needs both); a sandbox's own key is refused (PermissionDeniedError). An unknown, deleted or
expired id raises NotFoundError (SANDBOX_NOT_FOUND).

Every method also takes the call's own `timeout=`, `max_retries=` and `extra_headers=`, over the
client's; `with_raw_response` has each method answering the whole answer (RawResponse).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from .._errors import NotFoundError
from .._models import NewSandbox, NewSandboxKey, Sandbox
from .._pagination import AsyncPager, Pager, list_async_pages, list_pages
from .._raw_response import async_raw, async_raw_first_page, raw, raw_first_page
from .._transport import ApiRequest, AsyncTransport, CallOptions, SyncTransport, Timeout

if TYPE_CHECKING:
    from .._client import AsyncPetStore, PetStore

CreatedSandbox = NewSandboxKey
"""The sandbox as created: with its API key (`psk_test_…`), shown this once."""

TEST_SANDBOX_EXPIRES_IN = 3600
"""for_test()'s default expiry, in seconds: what bounds a sandbox a killed run never deleted (the service's default is 24 hours)."""


@dataclass(frozen=True)
class TestSandbox:
    """A sandbox made by `sandboxes.for_test()`: its id and key, and a PetStore bound to that key."""

    __test__ = False  # a name pytest would otherwise collect as a test class

    sandbox: CreatedSandbox
    """The sandbox as created (its name, expires_at, api_key)."""
    client: PetStore
    """A PetStore of the same options as the client that made the sandbox, with the sandbox's key: every call acts in the sandbox."""

    @property
    def id(self) -> str:
        """The sandbox's id (`sbx_…`)."""
        return self.sandbox.id

    @property
    def api_key(self) -> str:
        """The sandbox's API key (`psk_test_…`), for what runs apart from this client (another process, a tool)."""
        return self.sandbox.api_key


@dataclass(frozen=True)
class AsyncTestSandbox:
    """A sandbox made by `sandboxes.for_test()` of an AsyncPetStore: its id and key, and an AsyncPetStore bound to that key."""

    __test__ = False

    sandbox: CreatedSandbox
    """The sandbox as created (its name, expires_at, api_key)."""
    client: AsyncPetStore
    """An AsyncPetStore of the same options as the client that made the sandbox, with the sandbox's key."""

    @property
    def id(self) -> str:
        """The sandbox's id (`sbx_…`)."""
        return self.sandbox.id

    @property
    def api_key(self) -> str:
        """The sandbox's API key (`psk_test_…`), for what runs apart from this client (another process, a tool)."""
        return self.sandbox.api_key


def _path(sandbox_id: str) -> str:
    return f"/sandboxes/{quote(sandbox_id, safe='')}"


def _create(name: str, expires_in: int | None) -> ApiRequest[CreatedSandbox]:
    # No Idempotency-Key: the service keeps no copy of the key to answer a retry with, so it refuses
    # one, and a create is never retried (after a lost answer, list the sandboxes and delete the spare one).
    body = NewSandbox(name=name, expires_in=expires_in).to_wire()
    return ApiRequest("POST", "/sandboxes", CreatedSandbox.from_wire, body=body)


def _get(sandbox_id: str) -> ApiRequest[Sandbox]:
    return ApiRequest("GET", _path(sandbox_id), Sandbox.from_wire)


def _delete(sandbox_id: str) -> ApiRequest[None]:
    return ApiRequest("DELETE", _path(sandbox_id), _nothing)


def _nothing(_wire: Any) -> None:
    return None


def _test_name(name: str | None) -> str:
    return name if name is not None else f"test {datetime.now(timezone.utc).isoformat(timespec='milliseconds')}"


class Sandboxes:
    def __init__(self, transport: SyncTransport, with_key: Callable[[str], PetStore]) -> None:
        self._transport = transport
        self._with_key = with_key
        self.with_raw_response = SandboxesWithRawResponse(self)

    def create(
        self,
        *,
        name: str,
        expires_in: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> CreatedSandbox:
        """Makes a sandbox, expiring in `expires_in` seconds (24 hours when left out); the answer holds its
        API key (`psk_test_…`), shown this once. Never retried: it has no Idempotency-Key."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_create(name, expires_in), options).data

    def list(
        self,
        *,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pager[Sandbox]:
        """Every sandbox in use, in the order they were made."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return list_pages(self._transport, "/sandboxes", {"limit": limit}, Sandbox.from_wire, options)

    def get(
        self,
        sandbox_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Sandbox:
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_get(sandbox_id), options).data

    def delete(
        self,
        sandbox_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        """Deletes a sandbox: its keys are refused at once, and its data is removed in the background."""
        options = CallOptions(timeout, max_retries, extra_headers)
        self._transport.send(_delete(sandbox_id), options)

    @contextmanager
    def for_test(self, *, name: str | None = None, expires_in: int = TEST_SANDBOX_EXPIRES_IN) -> Iterator[TestSandbox]:
        """A new sandbox for a test or a test run, with a client bound to its key, deleted at the end of the block.

        `with petstore.sandboxes.for_test(name="checkout tests") as sandbox: sandbox.client.pets.create(...)`.
        One already gone at the end (expired, or deleted within) is no error. It expires by itself
        `expires_in` seconds after it was made (an hour), so a run killed midway leaves nothing for long.
        """
        created = self.create(name=_test_name(name), expires_in=expires_in)
        try:
            yield TestSandbox(created, self._with_key(created.api_key))
        finally:
            try:
                self.delete(created.id)
            except NotFoundError:
                pass


class SandboxesWithRawResponse:
    """`sandboxes.with_raw_response`: Sandboxes' methods answering the whole answer, a listing its first page's."""

    def __init__(self, sandboxes: Sandboxes) -> None:
        self.create = raw(sandboxes.create)
        self.list = raw_first_page(sandboxes.list)
        self.get = raw(sandboxes.get)
        self.delete = raw(sandboxes.delete)


class AsyncSandboxes:
    def __init__(self, transport: AsyncTransport, with_key: Callable[[str], AsyncPetStore]) -> None:
        self._transport = transport
        self._with_key = with_key
        self.with_raw_response = AsyncSandboxesWithRawResponse(self)

    async def create(
        self,
        *,
        name: str,
        expires_in: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> CreatedSandbox:
        """Makes a sandbox, expiring in `expires_in` seconds (24 hours when left out); the answer holds its
        API key (`psk_test_…`), shown this once. Never retried: it has no Idempotency-Key."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_create(name, expires_in), options)).data

    def list(
        self,
        *,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPager[Sandbox]:
        """Every sandbox in use, in the order they were made."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return list_async_pages(self._transport, "/sandboxes", {"limit": limit}, Sandbox.from_wire, options)

    async def get(
        self,
        sandbox_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Sandbox:
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_get(sandbox_id), options)).data

    async def delete(
        self,
        sandbox_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        """Deletes a sandbox: its keys are refused at once, and its data is removed in the background."""
        options = CallOptions(timeout, max_retries, extra_headers)
        await self._transport.send(_delete(sandbox_id), options)

    @asynccontextmanager
    async def for_test(
        self, *, name: str | None = None, expires_in: int = TEST_SANDBOX_EXPIRES_IN
    ) -> AsyncIterator[AsyncTestSandbox]:
        """A new sandbox with an AsyncPetStore bound to its key, deleted at the end of the block (`async with`).

        `async with petstore.sandboxes.for_test(name="checkout tests") as sandbox: await sandbox.client.pets.create(...)`.
        One already gone at the end (expired, or deleted within) is no error.
        """
        created = await self.create(name=_test_name(name), expires_in=expires_in)
        try:
            yield AsyncTestSandbox(created, self._with_key(created.api_key))
        finally:
            try:
                await self.delete(created.id)
            except NotFoundError:
                pass


class AsyncSandboxesWithRawResponse:
    """`sandboxes.with_raw_response`: AsyncSandboxes' methods answering the whole answer, a listing its first page's."""

    def __init__(self, sandboxes: AsyncSandboxes) -> None:
        self.create = async_raw(sandboxes.create)
        self.list = async_raw_first_page(sandboxes.list)
        self.get = async_raw(sandboxes.get)
        self.delete = async_raw(sandboxes.delete)
