"""The store group: orders and the inventory (experimental in the document: their shape may still change).

Reading needs a key with `store:read`, placing, moving and cancelling an order one with
`store:write`. Every method also takes the call's own `timeout=`, `max_retries=` and
`extra_headers=`, over the client's; `with_raw_response` has each method answering the whole answer
(RawResponse). An order answered carries its ETag as `_etag`: `if_match=` holds a change to it,
`if_none_match=` a read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from datetime import datetime
from typing import overload
from urllib.parse import quote

from .._metadata import map_of, patch_of
from .._models import Inventory, NewOrder, NewOrderStatus, Order, OrderPatch, OrderStatus
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


def _create(body: NewOrder, idempotency_key: str | None) -> ApiRequest[Order]:
    key = idempotency_key or new_idempotency_key()
    return ApiRequest("POST", "/store/orders", Order.from_wire, body=body.to_wire(), idempotency_key=key)


def _path(order_id: int) -> str:
    return f"/store/orders/{quote(str(order_id), safe='')}"


def _get(order_id: int, if_none_match: str | None) -> ApiRequest[Order | NotModified]:
    return ApiRequest("GET", _path(order_id), Order.from_wire, if_none_match=if_none_match)


def _update(order_id: int, body: OrderPatch, if_match: str | None, idempotency_key: str | None) -> ApiRequest[Order]:
    key = idempotency_key or new_idempotency_key()
    return ApiRequest(
        "PATCH", _path(order_id), Order.from_wire, body=body.to_wire(), content_type=MERGE_PATCH, idempotency_key=key, if_match=if_match
    )


def _cancel(order_id: int, if_match: str | None, idempotency_key: str | None) -> ApiRequest[Order]:
    key = idempotency_key or new_idempotency_key()
    return ApiRequest("POST", f"{_path(order_id)}/cancel", Order.from_wire, idempotency_key=key, if_match=if_match)


def _query(status: OrderStatus | None, limit: int | None, metadata: Mapping[str, str] | None) -> dict[str, QueryValue]:
    return {"status": status, "limit": limit, "metadata": metadata}


_INVENTORY = ApiRequest("GET", "/store/inventory", Inventory.from_wire)


class Orders:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = OrdersWithRawResponse(self)

    @overload
    def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pager[Order]: ...

    @overload
    def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Page[Order] | NotModified: ...

    def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None | Omitted = OMITTED,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pager[Order] | Page[Order] | NotModified:
        """Every order, or those of one status or metadata pair, in ascending id order; `limit` (1 to 100, 20 when left out) a page.

        `metadata={"erp_id": "A-17"}` lists the orders whose metadata holds that pair (one pair at most).

        With `if_none_match=` (a page's `_etag`), the first page at once, or NOT_MODIFIED while it is as it was.
        """
        options = CallOptions(timeout, max_retries, extra_headers)
        if isinstance(if_none_match, Omitted):
            return list_pages(self._transport, "/store/orders", _query(status, limit, metadata), Order.from_wire, options)
        return first_page_if_changed(self._transport, "/store/orders", _query(status, limit, metadata), Order.from_wire, options, if_none_match)

    def create(
        self,
        *,
        # NewOrder's fields as parameters, from openapi.json (scripts/generate.py):
        pet_id: int,
        quantity: int,
        status: NewOrderStatus | None = None,
        ship_date: datetime | None = None,
        complete: bool | None = None,
        metadata: Mapping[str, str] | None = None,
        # end of NewOrder's fields
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order:
        """Places an order for an available pet (ConflictError, PET_NOT_AVAILABLE, otherwise), which it holds.

        The pet is pending meanwhile, sold once the order is delivered, available again once it is
        cancelled; NotFoundError (PET_NOT_FOUND) for no such pet. `ship_date` is an aware datetime;
        `metadata`, your own references (`{}` when left out).
        """
        body = NewOrder(
            # NewOrder's fields as arguments, from openapi.json (scripts/generate.py):
            pet_id=pet_id,
            quantity=quantity,
            status=status,
            ship_date=ship_date,
            complete=complete,
            metadata=map_of(metadata),
            # end of NewOrder's fields
        )
        request = _create(body, idempotency_key)
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(request, options).data

    @overload
    def get(
        self,
        order_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order: ...

    @overload
    def get(
        self,
        order_id: int,
        *,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order | NotModified: ...

    def get(
        self,
        order_id: int,
        *,
        if_none_match: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order | NotModified:
        """One order by its id (NotFoundError, ORDER_NOT_FOUND, for none).

        With `if_none_match=` (its `_etag`): NOT_MODIFIED while it is current.
        """
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_get(order_id, if_none_match), options).data

    def update(
        self,
        order_id: int,
        *,
        # OrderPatch's fields as parameters, from openapi.json (scripts/generate.py):
        status: OrderStatus | None = None,
        ship_date: datetime | None = None,
        metadata: Mapping[str, str | None] | None | Omitted = OMITTED,
        # end of OrderPatch's fields
        if_match: str | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order:
        """Moves an order by a JSON Merge Patch of the fields given (OrderPatch's).

        A field left out stays as it is; see OrderPatch for those that take None to clear.

        `metadata` merges into the order's, final or not: a key given a string is set, a key given
        None removed, the others kept; `metadata=None` removes every key (left out, it is unchanged).

        Placed to approved, approved to delivered (which sells its pet and completes the order);
        delivered and cancelled are final (ConflictError, INVALID_TRANSITION): cancel with
        `cancel`. With `if_match=` (its `_etag`), only the order you saw is changed, else
        PreconditionFailedError. Safe to retry: see `idempotency_key` in the README.
        """
        body = OrderPatch(
            # OrderPatch's fields as arguments, from openapi.json (scripts/generate.py):
            status=status,
            ship_date=ship_date,
            metadata=patch_of(metadata),
            # end of OrderPatch's fields
        )
        request = _update(order_id, body, if_match, idempotency_key)
        return self._transport.send(request, CallOptions(timeout, max_retries, extra_headers)).data

    def cancel(
        self,
        order_id: int,
        *,
        if_match: str | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order:
        """Cancels a placed or approved order: its pet is available again.

        A delivered or cancelled order is final (ConflictError, INVALID_TRANSITION). With `if_match=`,
        only the order you saw is cancelled. Safe to retry: see `idempotency_key` in the README.
        """
        request = _cancel(order_id, if_match, idempotency_key)
        return self._transport.send(request, CallOptions(timeout, max_retries, extra_headers)).data


class OrdersWithRawResponse:
    """`store.orders.with_raw_response`: Orders' methods answering the whole answer, a listing its first page's."""

    def __init__(self, orders: Orders) -> None:
        self._transport = orders._transport
        self.create = raw(orders.create)
        self.update = raw(orders.update)
        self.cancel = raw(orders.cancel)

    @overload
    def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Page[Order]]: ...

    @overload
    def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Page[Order] | NotModified]: ...

    def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None | Omitted = OMITTED,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Page[Order]] | RawResponse[Page[Order] | NotModified]:
        transport, query, options = self._transport, _query(status, limit, metadata), CallOptions(timeout, max_retries, extra_headers)
        if isinstance(if_none_match, Omitted):
            return raw_of(lambda: list_pages(transport, "/store/orders", query, Order.from_wire, options).first_page())
        tag = if_none_match
        return raw_of(lambda: first_page_if_changed(transport, "/store/orders", query, Order.from_wire, options, tag))

    @overload
    def get(
        self,
        order_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Order]: ...

    @overload
    def get(
        self,
        order_id: int,
        *,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Order | NotModified]: ...

    def get(
        self,
        order_id: int,
        *,
        if_none_match: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Order] | RawResponse[Order | NotModified]:
        return self._transport.send(_get(order_id, if_none_match), CallOptions(timeout, max_retries, extra_headers))


class AsyncOrders:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = AsyncOrdersWithRawResponse(self)

    @overload
    def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPager[Order]: ...

    @overload
    def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Awaitable[AsyncPage[Order] | NotModified]: ...

    def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None | Omitted = OMITTED,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPager[Order] | Awaitable[AsyncPage[Order] | NotModified]:
        """Every order, or those of one status or metadata pair, in ascending id order; `limit` (1 to 100, 20 when left out) a page.

        `metadata={"erp_id": "A-17"}` lists the orders whose metadata holds that pair (one pair at most).

        With `if_none_match=` (a page's `_etag`), awaited, the first page at once, or NOT_MODIFIED while it is as it was.
        """
        options = CallOptions(timeout, max_retries, extra_headers)
        if isinstance(if_none_match, Omitted):
            return list_async_pages(self._transport, "/store/orders", _query(status, limit, metadata), Order.from_wire, options)
        return async_first_page_if_changed(self._transport, "/store/orders", _query(status, limit, metadata), Order.from_wire, options, if_none_match)

    async def create(
        self,
        *,
        # NewOrder's fields as parameters, from openapi.json (scripts/generate.py):
        pet_id: int,
        quantity: int,
        status: NewOrderStatus | None = None,
        ship_date: datetime | None = None,
        complete: bool | None = None,
        metadata: Mapping[str, str] | None = None,
        # end of NewOrder's fields
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order:
        """Places an order for an available pet (ConflictError, PET_NOT_AVAILABLE, otherwise), which it holds.

        The pet is pending meanwhile, sold once the order is delivered, available again once it is
        cancelled; NotFoundError (PET_NOT_FOUND) for no such pet. `ship_date` is an aware datetime;
        `metadata`, your own references (`{}` when left out).
        """
        body = NewOrder(
            # NewOrder's fields as arguments, from openapi.json (scripts/generate.py):
            pet_id=pet_id,
            quantity=quantity,
            status=status,
            ship_date=ship_date,
            complete=complete,
            metadata=map_of(metadata),
            # end of NewOrder's fields
        )
        request = _create(body, idempotency_key)
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(request, options)).data

    @overload
    async def get(
        self,
        order_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order: ...

    @overload
    async def get(
        self,
        order_id: int,
        *,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order | NotModified: ...

    async def get(
        self,
        order_id: int,
        *,
        if_none_match: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order | NotModified:
        """One order by its id (NotFoundError, ORDER_NOT_FOUND, for none).

        With `if_none_match=` (its `_etag`): NOT_MODIFIED while it is current.
        """
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_get(order_id, if_none_match), options)).data

    async def update(
        self,
        order_id: int,
        *,
        # OrderPatch's fields as parameters, from openapi.json (scripts/generate.py):
        status: OrderStatus | None = None,
        ship_date: datetime | None = None,
        metadata: Mapping[str, str | None] | None | Omitted = OMITTED,
        # end of OrderPatch's fields
        if_match: str | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order:
        """Moves an order by a JSON Merge Patch of the fields given (OrderPatch's).

        A field left out stays as it is; see OrderPatch for those that take None to clear.

        `metadata` merges into the order's, final or not: a key given a string is set, a key given
        None removed, the others kept; `metadata=None` removes every key (left out, it is unchanged).

        Placed to approved, approved to delivered (which sells its pet and completes the order);
        delivered and cancelled are final (ConflictError, INVALID_TRANSITION): cancel with
        `cancel`. With `if_match=` (its `_etag`), only the order you saw is changed, else
        PreconditionFailedError. Safe to retry: see `idempotency_key` in the README.
        """
        body = OrderPatch(
            # OrderPatch's fields as arguments, from openapi.json (scripts/generate.py):
            status=status,
            ship_date=ship_date,
            metadata=patch_of(metadata),
            # end of OrderPatch's fields
        )
        request = _update(order_id, body, if_match, idempotency_key)
        return (await self._transport.send(request, CallOptions(timeout, max_retries, extra_headers))).data

    async def cancel(
        self,
        order_id: int,
        *,
        if_match: str | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order:
        """Cancels a placed or approved order: its pet is available again.

        A delivered or cancelled order is final (ConflictError, INVALID_TRANSITION). With `if_match=`,
        only the order you saw is cancelled. Safe to retry: see `idempotency_key` in the README.
        """
        request = _cancel(order_id, if_match, idempotency_key)
        return (await self._transport.send(request, CallOptions(timeout, max_retries, extra_headers))).data


class AsyncOrdersWithRawResponse:
    """`store.orders.with_raw_response`: AsyncOrders' methods answering the whole answer, a listing its first page's."""

    def __init__(self, orders: AsyncOrders) -> None:
        self._transport = orders._transport
        self.create = async_raw(orders.create)
        self.update = async_raw(orders.update)
        self.cancel = async_raw(orders.cancel)

    @overload
    async def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[AsyncPage[Order]]: ...

    @overload
    async def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[AsyncPage[Order] | NotModified]: ...

    async def list(
        self,
        *,
        status: OrderStatus | None = None,
        metadata: Mapping[str, str] | None = None,
        limit: int | None = None,
        if_none_match: str | None | Omitted = OMITTED,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[AsyncPage[Order]] | RawResponse[AsyncPage[Order] | NotModified]:
        transport, query, options = self._transport, _query(status, limit, metadata), CallOptions(timeout, max_retries, extra_headers)
        if isinstance(if_none_match, Omitted):
            return await async_raw_of(lambda: list_async_pages(transport, "/store/orders", query, Order.from_wire, options).first_page())
        tag = if_none_match
        return await async_raw_of(lambda: async_first_page_if_changed(transport, "/store/orders", query, Order.from_wire, options, tag))

    @overload
    async def get(
        self,
        order_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Order]: ...

    @overload
    async def get(
        self,
        order_id: int,
        *,
        if_none_match: str | None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Order | NotModified]: ...

    async def get(
        self,
        order_id: int,
        *,
        if_none_match: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> RawResponse[Order] | RawResponse[Order | NotModified]:
        return await self._transport.send(_get(order_id, if_none_match), CallOptions(timeout, max_retries, extra_headers))


class Store:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport
        self.orders = Orders(transport)
        self.with_raw_response = StoreWithRawResponse(self)

    def inventory(
        self,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Inventory:
        """How many pets there are of each status."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_INVENTORY, options).data


class StoreWithRawResponse:
    """`store.with_raw_response`: the inventory's whole answer (the orders have their own: `store.orders.with_raw_response`)."""

    def __init__(self, store: Store) -> None:
        self.inventory = raw(store.inventory)


class AsyncStore:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport
        self.orders = AsyncOrders(transport)
        self.with_raw_response = AsyncStoreWithRawResponse(self)

    async def inventory(
        self,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Inventory:
        """How many pets there are of each status."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_INVENTORY, options)).data


class AsyncStoreWithRawResponse:
    """`store.with_raw_response`: the inventory's whole answer (the orders have their own: `store.orders.with_raw_response`)."""

    def __init__(self, store: AsyncStore) -> None:
        self.inventory = async_raw(store.inventory)
