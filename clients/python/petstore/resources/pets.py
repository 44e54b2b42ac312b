# mypy 1.0 knows no PEP 702 (petstore/_deprecation.py): its ignores below, which later ones would call unused.
# mypy: warn-unused-ignores=False
"""The animals of the store. Reading needs a key with `pets:read`, adding, changing and deleting one `pets:write`.

Every method also takes the call's own `timeout=`, `max_retries=` and `extra_headers=`, over the
client's; `with_raw_response` has each method answering the whole answer (RawResponse). A pet
answered carries its ETag as `_etag`: `if_match=` holds a change to it, `if_none_match=` a read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from typing import overload
from urllib.parse import quote

from .._deprecation import deprecated, warn_deprecated
from .._metadata import map_of, patch_of
from .._models import NewPet, NewPetStatus, Pet, PetPatch, PetStatus
from .._not_modified import OMITTED, NotModified, Omitted
from .._pagination import (
    AsyncPage,
    AsyncPager,
    Page,
    Pager,
    async_first_page_if_changed,
    first_page_if_changed,
    list_async_pages,
    list_pages,
)
from .._raw_response import async_raw, async_raw_of, raw, raw_of
from .._transport import (
    MERGE_PATCH,
    ApiRequest,
    AsyncTransport,
    CallOptions,
    QueryValue,
    RawResponse,
    SyncTransport,
    Timeout,
    new_idempotency_key,
)

_GET_DEPRECATED = (
    "getPet is deprecated and removed on 5 December 2030 (its Sunset header says so): "
    "list with a status filter instead, pets.list(status=...)."
)


def _path(pet_id: int) -> str:
    return f"/pets/{quote(str(pet_id), safe='')}"


def _create(body: NewPet, idempotency_key: str | None) -> ApiRequest[Pet]:
    key = idempotency_key or new_idempotency_key()
    return ApiRequest("POST", "/pets", Pet.from_wire, body=body.to_wire(), idempotency_key=key)


def _get(pet_id: int, if_none_match: str | None) -> ApiRequest[Pet | NotModified]:
    warn_deprecated(_GET_DEPRECATED)
    return ApiRequest("GET", _path(pet_id), Pet.from_wire, if_none_match=if_none_match)


def _update(pet_id: int, body: PetPatch, if_match: str | None, idempotency_key: str | None) -> ApiRequest[Pet]:
    key = idempotency_key or new_idempotency_key()
    return ApiRequest(
        "PATCH", _path(pet_id), Pet.from_wire, body=body.to_wire(), content_type=MERGE_PATCH, idempotency_key=key, if_match=if_match
    )


def _delete(pet_id: int, if_match: str | None) -> ApiRequest[None]:
    return ApiRequest("DELETE", _path(pet_id), lambda _wire: None, if_match=if_match)


def _query(status: PetStatus | None, limit: int | None, metadata: Mapping[str, str] | None) -> dict[str, QueryValue]:
    return {"status": status, "limit": limit, "metadata": metadata}


class Pets:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = PetsWithRawResponse(self)

    @overload
    def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pager[Pet]: ...

    @overload
    def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Page[Pet] | NotModified: ...

    def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None | Omitted = OMITTED,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pager[Pet] | Page[Pet] | NotModified:
        """Every pet, or those of one status or metadata pair, in ascending id order; `limit` (1 to 100, 20 when left out) a page.

        `metadata={"erp_id": "A-17"}` lists the pets whose metadata holds that pair (one pair at most).

        With `if_none_match=` (a page's `_etag`): the first page at once, or NOT_MODIFIED while it is as it was.
        """
        options = CallOptions(timeout, max_retries, extra_headers)
        if isinstance(if_none_match, Omitted):
            return list_pages(self._transport, "/pets", _query(status, limit, metadata), Pet.from_wire, options)
        return first_page_if_changed(self._transport, "/pets", _query(status, limit, metadata), Pet.from_wire, options, if_none_match)

    def create(
        self,
        *,
        # NewPet's fields as parameters, from openapi.json (scripts/generate.py):
        name: str,
        category_id: int,
        status: NewPetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        # end of NewPet's fields
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet:
        """Adds a pet; a field left out takes NewPet's default in the document. Safe to retry: see `idempotency_key` in the README."""
        body = NewPet(
            # NewPet's fields as arguments, from openapi.json (scripts/generate.py):
            name=name,
            category_id=category_id,
            status=status,
            metadata=map_of(metadata),
            # end of NewPet's fields
        )
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_create(body, idempotency_key), options).data

    @overload
    def get(
        self,
        pet_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet: ...

    @overload
    def get(
        self,
        pet_id: int,
        *,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet | NotModified: ...

    @deprecated(_GET_DEPRECATED, category=None)  # type: ignore[misc]
    def get(
        self,
        pet_id: int,
        *,
        if_none_match: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet | NotModified:
        """One pet by its id; with `if_none_match=` (its `_etag`), NOT_MODIFIED while it is current.

        Deprecated: getPet is removed on 5 December 2030; list with a status filter instead.
        """
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_get(pet_id, if_none_match), options).data

    def update(
        self,
        pet_id: int,
        *,
        # PetPatch's fields as parameters, from openapi.json (scripts/generate.py):
        name: str | None = None,
        category_id: int | None = None,
        status: PetStatus | None = None,
        metadata: Mapping[str, str | None] | None | Omitted = OMITTED,
        # end of PetPatch's fields
        if_match: str | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet:
        """Changes the fields given (a JSON Merge Patch); answers the pet as changed.

        A field left out stays as it is; see PetPatch for those that take None to clear.

        `metadata` merges into the pet's: a key given a string is set, a key given None removed, the
        others kept; `metadata=None` removes every key (left out, it is unchanged).

        Status moves: available to pending or sold, pending to available or sold; sold is final
        (ConflictError, INVALID_TRANSITION); a pet an open order holds moves only with that order
        (PET_HAS_OPEN_ORDER). With `if_match=` (its `_etag`), only the pet you saw is changed, else
        PreconditionFailedError. Safe to retry: see `idempotency_key` in the README.
        """
        body = PetPatch(
            # PetPatch's fields as arguments, from openapi.json (scripts/generate.py):
            name=name,
            category_id=category_id,
            status=status,
            metadata=patch_of(metadata),
            # end of PetPatch's fields
        )
        request = _update(pet_id, body, if_match, idempotency_key)
        return self._transport.send(request, CallOptions(timeout, max_retries, extra_headers)).data

    def delete(
        self,
        pet_id: int,
        *,
        if_match: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        """Deletes a pet no order names (ConflictError, PET_HAS_ORDERS, otherwise); afterwards it is not found.

        With `if_match=`, only the pet you saw is deleted. A deletion whose answer was lost is
        retried, and finds the pet already gone: NotFoundError.
        """
        self._transport.send(_delete(pet_id, if_match), CallOptions(timeout, max_retries, extra_headers))


class PetsWithRawResponse:
    """`pets.with_raw_response`: Pets' methods answering the whole answer, a listing its first page's."""

    def __init__(self, pets: Pets) -> None:
        self._transport = pets._transport
        self.create = raw(pets.create)
        self.update = raw(pets.update)
        self.delete = raw(pets.delete)

    @overload
    def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Page[Pet]]: ...

    @overload
    def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Page[Pet] | NotModified]: ...

    def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None | Omitted = OMITTED,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Page[Pet]] | RawResponse[Page[Pet] | NotModified]:
        transport, query, options = self._transport, _query(status, limit, metadata), CallOptions(timeout, max_retries, extra_headers)
        if isinstance(if_none_match, Omitted):
            return raw_of(lambda: list_pages(transport, "/pets", query, Pet.from_wire, options).first_page())
        tag = if_none_match
        return raw_of(lambda: first_page_if_changed(transport, "/pets", query, Pet.from_wire, options, tag))

    @overload
    def get(
        self,
        pet_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Pet]: ...

    @overload
    def get(
        self,
        pet_id: int,
        *,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Pet | NotModified]: ...

    @deprecated(_GET_DEPRECATED, category=None)  # type: ignore[misc]
    def get(
        self,
        pet_id: int,
        *,
        if_none_match: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Pet] | RawResponse[Pet | NotModified]:
        """One pet's whole answer. Deprecated: getPet is removed on 5 December 2030; list with a status filter instead."""
        return self._transport.send(_get(pet_id, if_none_match), CallOptions(timeout, max_retries, extra_headers))


class AsyncPets:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = AsyncPetsWithRawResponse(self)

    @overload
    def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPager[Pet]: ...

    @overload
    def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Awaitable[AsyncPage[Pet] | NotModified]: ...

    def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None | Omitted = OMITTED,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPager[Pet] | Awaitable[AsyncPage[Pet] | NotModified]:
        """Every pet, or those of one status or metadata pair, in ascending id order; `limit` (1 to 100, 20 when left out) a page.

        `metadata={"erp_id": "A-17"}` lists the pets whose metadata holds that pair (one pair at most).

        With `if_none_match=` (a page's `_etag`), awaited: the first page, or NOT_MODIFIED while it is as it was.
        """
        options = CallOptions(timeout, max_retries, extra_headers)
        if isinstance(if_none_match, Omitted):
            return list_async_pages(self._transport, "/pets", _query(status, limit, metadata), Pet.from_wire, options)
        return async_first_page_if_changed(self._transport, "/pets", _query(status, limit, metadata), Pet.from_wire, options, if_none_match)

    async def create(
        self,
        *,
        # NewPet's fields as parameters, from openapi.json (scripts/generate.py):
        name: str,
        category_id: int,
        status: NewPetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        # end of NewPet's fields
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet:
        """Adds a pet; a field left out takes NewPet's default in the document. Safe to retry: see `idempotency_key` in the README."""
        body = NewPet(
            # NewPet's fields as arguments, from openapi.json (scripts/generate.py):
            name=name,
            category_id=category_id,
            status=status,
            metadata=map_of(metadata),
            # end of NewPet's fields
        )
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_create(body, idempotency_key), options)).data

    @overload
    async def get(
        self,
        pet_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet: ...

    @overload
    async def get(
        self,
        pet_id: int,
        *,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet | NotModified: ...

    @deprecated(_GET_DEPRECATED, category=None)  # type: ignore[misc]
    async def get(
        self,
        pet_id: int,
        *,
        if_none_match: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet | NotModified:
        """One pet by its id; with `if_none_match=` (its `_etag`), NOT_MODIFIED while it is current.

        Deprecated: getPet is removed on 5 December 2030; list with a status filter instead.
        """
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_get(pet_id, if_none_match), options)).data

    async def update(
        self,
        pet_id: int,
        *,
        # PetPatch's fields as parameters, from openapi.json (scripts/generate.py):
        name: str | None = None,
        category_id: int | None = None,
        status: PetStatus | None = None,
        metadata: Mapping[str, str | None] | None | Omitted = OMITTED,
        # end of PetPatch's fields
        if_match: str | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pet:
        """Changes the fields given (a JSON Merge Patch); answers the pet as changed.

        A field left out stays as it is; see PetPatch for those that take None to clear.

        `metadata` merges into the pet's: a key given a string is set, a key given None removed, the
        others kept; `metadata=None` removes every key (left out, it is unchanged).

        Status moves: available to pending or sold, pending to available or sold; sold is final
        (ConflictError, INVALID_TRANSITION); a pet an open order holds moves only with that order
        (PET_HAS_OPEN_ORDER). With `if_match=` (its `_etag`), only the pet you saw is changed, else
        PreconditionFailedError. Safe to retry: see `idempotency_key` in the README.
        """
        body = PetPatch(
            # PetPatch's fields as arguments, from openapi.json (scripts/generate.py):
            name=name,
            category_id=category_id,
            status=status,
            metadata=patch_of(metadata),
            # end of PetPatch's fields
        )
        request = _update(pet_id, body, if_match, idempotency_key)
        return (await self._transport.send(request, CallOptions(timeout, max_retries, extra_headers))).data

    async def delete(
        self,
        pet_id: int,
        *,
        if_match: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        """Deletes a pet no order names (ConflictError, PET_HAS_ORDERS, otherwise); afterwards it is not found.

        With `if_match=`, only the pet you saw is deleted. A deletion whose answer was lost is
        retried, and finds the pet already gone: NotFoundError.
        """
        await self._transport.send(_delete(pet_id, if_match), CallOptions(timeout, max_retries, extra_headers))


class AsyncPetsWithRawResponse:
    """`pets.with_raw_response`: AsyncPets' methods answering the whole answer, a listing its first page's."""

    def __init__(self, pets: AsyncPets) -> None:
        self._transport = pets._transport
        self.create = async_raw(pets.create)
        self.update = async_raw(pets.update)
        self.delete = async_raw(pets.delete)

    @overload
    async def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[AsyncPage[Pet]]: ...

    @overload
    async def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[AsyncPage[Pet] | NotModified]: ...

    async def list(
        self,
        *,
        status: PetStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None | Omitted = OMITTED,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[AsyncPage[Pet]] | RawResponse[AsyncPage[Pet] | NotModified]:
        transport, query, options = self._transport, _query(status, limit, metadata), CallOptions(timeout, max_retries, extra_headers)
        if isinstance(if_none_match, Omitted):
            return await async_raw_of(lambda: list_async_pages(transport, "/pets", query, Pet.from_wire, options).first_page())
        tag = if_none_match
        return await async_raw_of(lambda: async_first_page_if_changed(transport, "/pets", query, Pet.from_wire, options, tag))

    @overload
    async def get(
        self,
        pet_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Pet]: ...

    @overload
    async def get(
        self,
        pet_id: int,
        *,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Pet | NotModified]: ...

    @deprecated(_GET_DEPRECATED, category=None)  # type: ignore[misc]
    async def get(
        self,
        pet_id: int,
        *,
        if_none_match: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Pet] | RawResponse[Pet | NotModified]:
        """One pet's whole answer. Deprecated: getPet is removed on 5 December 2030; list with a status filter instead."""
        return await self._transport.send(_get(pet_id, if_none_match), CallOptions(timeout, max_retries, extra_headers))
