"""The events of the last 30 days, with every delivery attempt. Reading needs a key with `webhooks:read`,
redelivering `webhooks:write`; an unknown id raises NotFoundError (EVENT_NOT_FOUND).

Every method also takes the call's own `timeout=`, `max_retries=` and `extra_headers=`, over the
client's; `with_raw_response` has each method answering the whole answer (RawResponse).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

from .._models import Event, EventWithDeliveries, ListEventsType, Queued, Redelivery
from .._pagination import AsyncPager, Pager, list_async_pages, list_pages
from .._raw_response import async_raw, async_raw_first_page, raw, raw_first_page
from .._transport import ApiRequest, AsyncTransport, CallOptions, SyncTransport, Timeout


def _get(event_id: str) -> ApiRequest[EventWithDeliveries]:
    return ApiRequest("GET", f"/events/{quote(event_id, safe='')}", EventWithDeliveries.from_wire)


def _redeliver(event_id: str, endpoint_id: str | None) -> ApiRequest[int]:
    path = f"/events/{quote(event_id, safe='')}/redeliver"
    body = Redelivery(endpoint_id=endpoint_id).to_wire()
    return ApiRequest("POST", path, lambda wire: Queued.from_wire(wire).queued, body=body)


class Events:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = EventsWithRawResponse(self)

    def list(
        self,
        *,
        type: ListEventsType | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pager[Event]:
        """Every event, or those of one type, oldest first."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return list_pages(self._transport, "/events", {"type": type, "limit": limit}, Event.from_wire, options)

    def get(
        self,
        event_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> EventWithDeliveries:
        """One event, with its delivery to each endpoint and every attempt."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_get(event_id), options).data

    def redeliver(
        self,
        event_id: str,
        *,
        endpoint_id: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> int:
        """Sends the event again, to one endpoint or to every one subscribed; answers how many deliveries were queued."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_redeliver(event_id, endpoint_id), options).data


class EventsWithRawResponse:
    """`events.with_raw_response`: Events' methods answering the whole answer, a listing its first page's."""

    def __init__(self, events: Events) -> None:
        self.list = raw_first_page(events.list)
        self.get = raw(events.get)
        self.redeliver = raw(events.redeliver)


class AsyncEvents:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = AsyncEventsWithRawResponse(self)

    def list(
        self,
        *,
        type: ListEventsType | None = None,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPager[Event]:
        """Every event, or those of one type, oldest first."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return list_async_pages(self._transport, "/events", {"type": type, "limit": limit}, Event.from_wire, options)

    async def get(
        self,
        event_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> EventWithDeliveries:
        """One event, with its delivery to each endpoint and every attempt."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_get(event_id), options)).data

    async def redeliver(
        self,
        event_id: str,
        *,
        endpoint_id: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> int:
        """Sends the event again, to one endpoint or to every one subscribed; answers how many deliveries were queued."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_redeliver(event_id, endpoint_id), options)).data


class AsyncEventsWithRawResponse:
    """`events.with_raw_response`: AsyncEvents' methods answering the whole answer, a listing its first page's."""

    def __init__(self, events: AsyncEvents) -> None:
        self.list = async_raw_first_page(events.list)
        self.get = async_raw(events.get)
        self.redeliver = async_raw(events.redeliver)
