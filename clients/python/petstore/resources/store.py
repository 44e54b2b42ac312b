"""The store group: orders and the inventory (experimental in the document: their shape may still change).

Reading needs a key with `store:read`, placing an order one with `store:write`. Every method also
takes the call's own `timeout=`, `max_retries=` and `extra_headers=`, over the client's;
`with_raw_response` has each method answering the whole answer (RawResponse).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from urllib.parse import quote

from .._models import Inventory, NewOrder, Order, OrderStatus
from .._pagination import AsyncPager, Pager, list_async_pages, list_pages
from .._raw_response import async_raw, async_raw_first_page, raw, raw_first_page
from .._transport import ApiRequest, AsyncTransport, CallOptions, SyncTransport, Timeout, new_idempotency_key


def _create(
    pet_id: int,
    quantity: int,
    status: OrderStatus | None,
    ship_date: datetime | None,
    complete: bool | None,
    idempotency_key: str | None,
) -> ApiRequest[Order]:
    body = NewOrder(pet_id=pet_id, quantity=quantity, status=status, ship_date=ship_date, complete=complete).to_wire()
    key = idempotency_key or new_idempotency_key()
    return ApiRequest("POST", "/store/orders", Order.from_wire, body=body, idempotency_key=key)


def _get(order_id: int) -> ApiRequest[Order]:
    return ApiRequest("GET", f"/store/orders/{quote(str(order_id), safe='')}", Order.from_wire)


_INVENTORY = ApiRequest("GET", "/store/inventory", Inventory.from_wire)


class Orders:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = OrdersWithRawResponse(self)

    def list(
        self,
        *,
        status: OrderStatus | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pager[Order]:
        """Every order, or those of one status, in ascending id order; `limit` (1 to 100, 20 when left out) a page."""
        query = {"status": status, "limit": limit}
        options = CallOptions(timeout, max_retries, extra_headers)
        return list_pages(self._transport, "/store/orders", query, Order.from_wire, options)

    def create(
        self,
        *,
        pet_id: int,
        quantity: int,
        status: OrderStatus | None = None,
        ship_date: datetime | None = None,
        complete: bool | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order:
        """Places an order for an existing pet (else NotFoundError, PET_NOT_FOUND); `ship_date` is an aware datetime."""
        request = _create(pet_id, quantity, status, ship_date, complete, idempotency_key)
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(request, options).data

    def get(
        self,
        order_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order:
        """One order by its id; NotFoundError (ORDER_NOT_FOUND) when there is none."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_get(order_id), options).data


class OrdersWithRawResponse:
    """`store.orders.with_raw_response`: Orders' methods answering the whole answer, a listing its first page's."""

    def __init__(self, orders: Orders) -> None:
        self.list = raw_first_page(orders.list)
        self.create = raw(orders.create)
        self.get = raw(orders.get)


class AsyncOrders:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = AsyncOrdersWithRawResponse(self)

    def list(
        self,
        *,
        status: OrderStatus | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPager[Order]:
        """Every order, or those of one status, in ascending id order; `limit` (1 to 100, 20 when left out) a page."""
        query = {"status": status, "limit": limit}
        options = CallOptions(timeout, max_retries, extra_headers)
        return list_async_pages(self._transport, "/store/orders", query, Order.from_wire, options)

    async def create(
        self,
        *,
        pet_id: int,
        quantity: int,
        status: OrderStatus | None = None,
        ship_date: datetime | None = None,
        complete: bool | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order:
        """Places an order for an existing pet (else NotFoundError, PET_NOT_FOUND); `ship_date` is an aware datetime."""
        request = _create(pet_id, quantity, status, ship_date, complete, idempotency_key)
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(request, options)).data

    async def get(
        self,
        order_id: int,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Order:
        """One order by its id; NotFoundError (ORDER_NOT_FOUND) when there is none."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_get(order_id), options)).data


class AsyncOrdersWithRawResponse:
    """`store.orders.with_raw_response`: AsyncOrders' methods answering the whole answer, a listing its first page's."""

    def __init__(self, orders: AsyncOrders) -> None:
        self.list = async_raw_first_page(orders.list)
        self.create = async_raw(orders.create)
        self.get = async_raw(orders.get)


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
