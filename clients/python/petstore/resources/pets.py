# mypy 1.0 knows no PEP 702 (petstore/_deprecation.py): its ignores below, which later ones would call unused.
# mypy: warn-unused-ignores=False
"""The animals of the store. Reading needs a key with `pets:read`, adding one with `pets:write`.

Every method also takes the call's own `timeout=`, `max_retries=` and `extra_headers=`, over the
client's; `with_raw_response` has each method answering the whole answer (RawResponse).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

from .._deprecation import deprecated, warn_deprecated
from .._models import NewPet, Pet, PetStatus
from .._pagination import AsyncPager, Pager, list_async_pages, list_pages
from .._raw_response import async_raw, async_raw_first_page, raw, raw_first_page
from .._transport import ApiRequest, AsyncTransport, CallOptions, SyncTransport, Timeout, new_idempotency_key

_GET_DEPRECATED = (
    "getPet is deprecated and removed on 5 December 2030 (its Sunset header says so): "
    "list with a status filter instead, pets.list(status=...)."
)


def _create(name: str, category_id: int, status: PetStatus | None, idempotency_key: str | None) -> ApiRequest[Pet]:
    body = NewPet(name=name, category_id=category_id, status=status).to_wire()
    return ApiRequest("POST", "/pets", Pet.from_wire, body=body, idempotency_key=idempotency_key or new_idempotency_key())


def _get(pet_id: int) -> ApiRequest[Pet]:
    warn_deprecated(_GET_DEPRECATED)
    return ApiRequest("GET", f"/pets/{quote(str(pet_id), safe='')}", Pet.from_wire)


class Pets:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = PetsWithRawResponse(self)

    def list(
        self,
        *,
        status: PetStatus | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pager[Pet]:
        """Every pet, or those of one status, in ascending id order; `limit` (1 to 100, 20 when left out) a page."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return list_pages(self._transport, "/pets", {"status": status, "limit": limit}, Pet.from_wire, options)

    def create(
        self,
        *,
        name: str,
        category_id: int,
        status: PetStatus | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet:
        """Adds a pet; `status` is `available` when left out. Safe to retry: see `idempotency_key` in the README."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_create(name, category_id, status, idempotency_key), options).data

    @deprecated(_GET_DEPRECATED, category=None)  # type: ignore[misc]
    def get(
        self,
        pet_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet:
        """One pet by its id. Deprecated: getPet is removed on 5 December 2030; list with a status filter instead."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_get(pet_id), options).data


class PetsWithRawResponse:
    """`pets.with_raw_response`: Pets' methods answering the whole answer, a listing its first page's."""

    def __init__(self, pets: Pets) -> None:
        self.list = raw_first_page(pets.list)
        self.create = raw(pets.create)
        self.get = raw(pets.get)


class AsyncPets:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = AsyncPetsWithRawResponse(self)

    def list(
        self,
        *,
        status: PetStatus | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPager[Pet]:
        """Every pet, or those of one status, in ascending id order; `limit` (1 to 100, 20 when left out) a page."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return list_async_pages(self._transport, "/pets", {"status": status, "limit": limit}, Pet.from_wire, options)

    async def create(
        self,
        *,
        name: str,
        category_id: int,
        status: PetStatus | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet:
        """Adds a pet; `status` is `available` when left out. Safe to retry: see `idempotency_key` in the README."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_create(name, category_id, status, idempotency_key), options)).data

    @deprecated(_GET_DEPRECATED, category=None)  # type: ignore[misc]
    async def get(
        self,
        pet_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet:
        """One pet by its id. Deprecated: getPet is removed on 5 December 2030; list with a status filter instead."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_get(pet_id), options)).data


class AsyncPetsWithRawResponse:
    """`pets.with_raw_response`: AsyncPets' methods answering the whole answer, a listing its first page's."""

    def __init__(self, pets: AsyncPets) -> None:
        self.list = async_raw_first_page(pets.list)
        self.create = async_raw(pets.create)
        self.get = async_raw(pets.get)
