"""The events of the last 30 days, with every delivery attempt. Reading needs a key with `webhooks:read`,
redelivering `webhooks:write`; an unknown id raises NotFoundError (EVENT_NOT_FOUND)."""

from __future__ import annotations

from urllib.parse import quote

from .._models import Event, EventWithDeliveries, ListEventsType, Queued, Redelivery
from .._pagination import AsyncPager, Pager, list_async_pages, list_pages
from .._transport import ApiRequest, AsyncTransport, SyncTransport


def _get(event_id: str) -> ApiRequest[EventWithDeliveries]:
    return ApiRequest("GET", f"/events/{quote(event_id, safe='')}", EventWithDeliveries.from_wire)


def _redeliver(event_id: str, endpoint_id: str | None) -> ApiRequest[int]:
    path = f"/events/{quote(event_id, safe='')}/redeliver"
    body = Redelivery(endpoint_id=endpoint_id).to_wire()
    return ApiRequest("POST", path, lambda wire: Queued.from_wire(wire).queued, body=body)


class Events:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport

    def list(self, *, type: ListEventsType | None = None, limit: int | None = None) -> Pager[Event]:
        """Every event, or those of one type, oldest first."""
        return list_pages(self._transport, "/events", {"type": type, "limit": limit}, Event.from_wire)

    def get(self, event_id: str) -> EventWithDeliveries:
        """One event, with its delivery to each endpoint and every attempt."""
        return self._transport.send(_get(event_id)).data

    def redeliver(self, event_id: str, *, endpoint_id: str | None = None) -> int:
        """Sends the event again, to one endpoint or to every one subscribed; answers how many deliveries were queued."""
        return self._transport.send(_redeliver(event_id, endpoint_id)).data


class AsyncEvents:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport

    def list(self, *, type: ListEventsType | None = None, limit: int | None = None) -> AsyncPager[Event]:
        """Every event, or those of one type, oldest first."""
        return list_async_pages(self._transport, "/events", {"type": type, "limit": limit}, Event.from_wire)

    async def get(self, event_id: str) -> EventWithDeliveries:
        """One event, with its delivery to each endpoint and every attempt."""
        return (await self._transport.send(_get(event_id))).data

    async def redeliver(self, event_id: str, *, endpoint_id: str | None = None) -> int:
        """Sends the event again, to one endpoint or to every one subscribed; answers how many deliveries were queued."""
        return (await self._transport.send(_redeliver(event_id, endpoint_id))).data
