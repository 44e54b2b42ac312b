"""Where events are sent (webhooks). Reading needs a key with `webhooks:read`, the rest `webhooks:write`;
an unknown id raises NotFoundError (WEBHOOK_ENDPOINT_NOT_FOUND)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote

from .._models import (
    Event,
    NewWebhookEndpoint,
    NewWebhookEndpointEventsItem,
    NewWebhookEndpointSecret,
    Queued,
    Recovery,
    WebhookEndpoint,
    WebhookSecret,
)
from .._pagination import AsyncPager, Pager, list_async_pages, list_pages
from .._transport import ApiRequest, AsyncTransport, SyncTransport, new_idempotency_key

CreatedWebhookEndpoint = NewWebhookEndpointSecret
"""The endpoint as created: with its signing secret, shown this once."""


def _path(endpoint_id: str, action: str = "") -> str:
    return f"/webhook-endpoints/{quote(endpoint_id, safe='')}{action}"


def _create(
    url: str, events: Sequence[NewWebhookEndpointEventsItem], description: str | None, idempotency_key: str | None
) -> ApiRequest[CreatedWebhookEndpoint]:
    body = NewWebhookEndpoint(url=url, events=list(events), description=description).to_wire()
    key = idempotency_key or new_idempotency_key()
    return ApiRequest("POST", "/webhook-endpoints", CreatedWebhookEndpoint.from_wire, body=body, idempotency_key=key)


def _get(endpoint_id: str) -> ApiRequest[WebhookEndpoint]:
    return ApiRequest("GET", _path(endpoint_id), WebhookEndpoint.from_wire)


def _delete(endpoint_id: str) -> ApiRequest[None]:
    return ApiRequest("DELETE", _path(endpoint_id), _nothing)


def _switch(endpoint_id: str, action: str) -> ApiRequest[WebhookEndpoint]:
    return ApiRequest("POST", _path(endpoint_id, action), WebhookEndpoint.from_wire)


def _rotate_secret(endpoint_id: str) -> ApiRequest[WebhookSecret]:
    return ApiRequest("POST", _path(endpoint_id, "/rotate-secret"), WebhookSecret.from_wire)


def _test(endpoint_id: str) -> ApiRequest[Event]:
    return ApiRequest("POST", _path(endpoint_id, "/test"), Event.from_wire)


def _recover(endpoint_id: str, since: datetime) -> ApiRequest[int]:
    body = Recovery(since=since).to_wire()
    return ApiRequest("POST", _path(endpoint_id, "/recover"), lambda wire: Queued.from_wire(wire).queued, body=body)


def _nothing(_wire: Any) -> None:
    return None


class WebhookEndpoints:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport

    def create(
        self,
        *,
        url: str,
        events: Sequence[NewWebhookEndpointEventsItem],
        description: str | None = None,
        idempotency_key: str | None = None,
    ) -> CreatedWebhookEndpoint:
        """Adds an endpoint; the answer holds its signing secret (`whsec_…`), shown this once: keep it."""
        return self._transport.send(_create(url, events, description, idempotency_key)).data

    def list(self, *, limit: int | None = None) -> Pager[WebhookEndpoint]:
        """Every endpoint, oldest first."""
        return list_pages(self._transport, "/webhook-endpoints", {"limit": limit}, WebhookEndpoint.from_wire)

    def get(self, endpoint_id: str) -> WebhookEndpoint:
        return self._transport.send(_get(endpoint_id)).data

    def delete(self, endpoint_id: str) -> None:
        """Removes the endpoint: nothing more is sent to it."""
        self._transport.send(_delete(endpoint_id))

    def disable(self, endpoint_id: str) -> WebhookEndpoint:
        """Stops deliveries until enabled again; events meanwhile are not queued for it (`events.redeliver` sends one)."""
        return self._transport.send(_switch(endpoint_id, "/disable")).data

    def enable(self, endpoint_id: str) -> WebhookEndpoint:
        return self._transport.send(_switch(endpoint_id, "/enable")).data

    def rotate_secret(self, endpoint_id: str) -> WebhookSecret:
        """A new signing secret; the previous one keeps signing beside it for 24 hours, so a receiver can roll without a miss."""
        return self._transport.send(_rotate_secret(endpoint_id)).data

    def test(self, endpoint_id: str) -> Event:
        """Sends a `webhook.test` event to this endpoint only; answers the event queued."""
        return self._transport.send(_test(endpoint_id)).data

    def recover(self, endpoint_id: str, *, since: datetime) -> int:
        """Sends again every delivery to this endpoint that failed, of events since `since` (aware); answers how many were queued."""
        return self._transport.send(_recover(endpoint_id, since)).data


class AsyncWebhookEndpoints:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport

    async def create(
        self,
        *,
        url: str,
        events: Sequence[NewWebhookEndpointEventsItem],
        description: str | None = None,
        idempotency_key: str | None = None,
    ) -> CreatedWebhookEndpoint:
        """Adds an endpoint; the answer holds its signing secret (`whsec_…`), shown this once: keep it."""
        return (await self._transport.send(_create(url, events, description, idempotency_key))).data

    def list(self, *, limit: int | None = None) -> AsyncPager[WebhookEndpoint]:
        """Every endpoint, oldest first."""
        return list_async_pages(self._transport, "/webhook-endpoints", {"limit": limit}, WebhookEndpoint.from_wire)

    async def get(self, endpoint_id: str) -> WebhookEndpoint:
        return (await self._transport.send(_get(endpoint_id))).data

    async def delete(self, endpoint_id: str) -> None:
        """Removes the endpoint: nothing more is sent to it."""
        await self._transport.send(_delete(endpoint_id))

    async def disable(self, endpoint_id: str) -> WebhookEndpoint:
        """Stops deliveries until enabled again; events meanwhile are not queued for it (`events.redeliver` sends one)."""
        return (await self._transport.send(_switch(endpoint_id, "/disable"))).data

    async def enable(self, endpoint_id: str) -> WebhookEndpoint:
        return (await self._transport.send(_switch(endpoint_id, "/enable"))).data

    async def rotate_secret(self, endpoint_id: str) -> WebhookSecret:
        """A new signing secret; the previous one keeps signing beside it for 24 hours, so a receiver can roll without a miss."""
        return (await self._transport.send(_rotate_secret(endpoint_id))).data

    async def test(self, endpoint_id: str) -> Event:
        """Sends a `webhook.test` event to this endpoint only; answers the event queued."""
        return (await self._transport.send(_test(endpoint_id))).data

    async def recover(self, endpoint_id: str, *, since: datetime) -> int:
        """Sends again every delivery to this endpoint that failed, of events since `since` (aware); answers how many were queued."""
        return (await self._transport.send(_recover(endpoint_id, since))).data
