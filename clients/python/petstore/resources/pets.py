"""The animals of the store. Reading needs a key with `pets:read`, adding one with `pets:write`."""

from __future__ import annotations

import warnings
from urllib.parse import quote

from .._models import NewPet, Pet, PetStatus
from .._pagination import AsyncPager, Pager, list_async_pages, list_pages
from .._transport import ApiRequest, AsyncTransport, SyncTransport, new_idempotency_key

_GET_DEPRECATED = (
    "getPet is deprecated and removed on 5 December 2030 (its Sunset header says so): "
    "list with a status filter instead, pets.list(status=...)."
)


def _create(name: str, category_id: int, status: PetStatus | None, idempotency_key: str | None) -> ApiRequest[Pet]:
    body = NewPet(name=name, category_id=category_id, status=status).to_wire()
    return ApiRequest("POST", "/pets", Pet.from_wire, body=body, idempotency_key=idempotency_key or new_idempotency_key())


def _get(pet_id: int) -> ApiRequest[Pet]:
    warnings.warn(_GET_DEPRECATED, DeprecationWarning, stacklevel=3)
    return ApiRequest("GET", f"/pets/{quote(str(pet_id), safe='')}", Pet.from_wire)


class Pets:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport

    def list(self, *, status: PetStatus | None = None, limit: int | None = None) -> Pager[Pet]:
        """Every pet, or those of one status, in ascending id order; `limit` (1 to 100, 20 when left out) a page."""
        return list_pages(self._transport, "/pets", {"status": status, "limit": limit}, Pet.from_wire)

    def create(
        self, *, name: str, category_id: int, status: PetStatus | None = None, idempotency_key: str | None = None
    ) -> Pet:
        """Adds a pet; `status` is `available` when left out. Safe to retry: see `idempotency_key` in the README."""
        return self._transport.send(_create(name, category_id, status, idempotency_key)).data

    def get(self, pet_id: int) -> Pet:
        """One pet by its id. Deprecated: getPet is removed on 5 December 2030; list with a status filter instead."""
        return self._transport.send(_get(pet_id)).data


class AsyncPets:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport

    def list(self, *, status: PetStatus | None = None, limit: int | None = None) -> AsyncPager[Pet]:
        """Every pet, or those of one status, in ascending id order; `limit` (1 to 100, 20 when left out) a page."""
        return list_async_pages(self._transport, "/pets", {"status": status, "limit": limit}, Pet.from_wire)

    async def create(
        self, *, name: str, category_id: int, status: PetStatus | None = None, idempotency_key: str | None = None
    ) -> Pet:
        """Adds a pet; `status` is `available` when left out. Safe to retry: see `idempotency_key` in the README."""
        return (await self._transport.send(_create(name, category_id, status, idempotency_key))).data

    async def get(self, pet_id: int) -> Pet:
        """One pet by its id. Deprecated: getPet is removed on 5 December 2030; list with a status filter instead."""
        return (await self._transport.send(_get(pet_id))).data
