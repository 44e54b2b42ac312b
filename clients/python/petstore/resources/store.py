"""The store group: orders and the inventory (experimental in the document: their shape may still change).

Reading needs a key with `store:read`, placing an order one with `store:write`.
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote

from .._models import Inventory, NewOrder, Order, OrderStatus
from .._pagination import AsyncPager, Pager, list_async_pages, list_pages
from .._transport import ApiRequest, AsyncTransport, SyncTransport, new_idempotency_key


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

    def list(self, *, status: OrderStatus | None = None, limit: int | None = None) -> Pager[Order]:
        """Every order, or those of one status, in ascending id order; `limit` (1 to 100, 20 when left out) a page."""
        return list_pages(self._transport, "/store/orders", {"status": status, "limit": limit}, Order.from_wire)

    def create(
        self,
        *,
        pet_id: int,
        quantity: int,
        status: OrderStatus | None = None,
        ship_date: datetime | None = None,
        complete: bool | None = None,
        idempotency_key: str | None = None,
    ) -> Order:
        """Places an order for an existing pet (else NotFoundError, PET_NOT_FOUND); `ship_date` is an aware datetime."""
        return self._transport.send(_create(pet_id, quantity, status, ship_date, complete, idempotency_key)).data

    def get(self, order_id: int) -> Order:
        """One order by its id; NotFoundError (ORDER_NOT_FOUND) when there is none."""
        return self._transport.send(_get(order_id)).data


class AsyncOrders:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport

    def list(self, *, status: OrderStatus | None = None, limit: int | None = None) -> AsyncPager[Order]:
        """Every order, or those of one status, in ascending id order; `limit` (1 to 100, 20 when left out) a page."""
        return list_async_pages(self._transport, "/store/orders", {"status": status, "limit": limit}, Order.from_wire)

    async def create(
        self,
        *,
        pet_id: int,
        quantity: int,
        status: OrderStatus | None = None,
        ship_date: datetime | None = None,
        complete: bool | None = None,
        idempotency_key: str | None = None,
    ) -> Order:
        """Places an order for an existing pet (else NotFoundError, PET_NOT_FOUND); `ship_date` is an aware datetime."""
        return (await self._transport.send(_create(pet_id, quantity, status, ship_date, complete, idempotency_key))).data

    async def get(self, order_id: int) -> Order:
        """One order by its id; NotFoundError (ORDER_NOT_FOUND) when there is none."""
        return (await self._transport.send(_get(order_id))).data


class Store:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport
        self.orders = Orders(transport)

    def inventory(self) -> Inventory:
        """How many pets there are of each status."""
        return self._transport.send(_INVENTORY).data


class AsyncStore:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport
        self.orders = AsyncOrders(transport)

    async def inventory(self) -> Inventory:
        """How many pets there are of each status."""
        return (await self._transport.send(_INVENTORY)).data
