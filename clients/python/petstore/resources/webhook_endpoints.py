"""Where events are sent (webhooks). Reading needs a key with `webhooks:read`, the rest `webhooks:write`;
an unknown id raises NotFoundError (WEBHOOK_ENDPOINT_NOT_FOUND).

Every method also takes the call's own `timeout=`, `max_retries=` and `extra_headers=`, over the
client's; `with_raw_response` has each method answering the whole answer (RawResponse).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from .._raw_response import async_raw, async_raw_first_page, raw, raw_first_page
from .._transport import ApiRequest, AsyncTransport, CallOptions, SyncTransport, Timeout, new_idempotency_key

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
        self.with_raw_response = WebhookEndpointsWithRawResponse(self)

    def create(
        self,
        *,
        url: str,
        events: Sequence[NewWebhookEndpointEventsItem],
        description: str | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> CreatedWebhookEndpoint:
        """Adds an endpoint; the answer holds its signing secret (`whsec_…`), shown this once: keep it."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_create(url, events, description, idempotency_key), options).data

    def list(
        self,
        *,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Pager[WebhookEndpoint]:
        """Every endpoint, oldest first."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return list_pages(self._transport, "/webhook-endpoints", {"limit": limit}, WebhookEndpoint.from_wire, options)

    def get(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> WebhookEndpoint:
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_get(endpoint_id), options).data

    def delete(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        """Removes the endpoint: nothing more is sent to it."""
        options = CallOptions(timeout, max_retries, extra_headers)
        self._transport.send(_delete(endpoint_id), options)

    def disable(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> WebhookEndpoint:
        """Stops deliveries until enabled again; events meanwhile are not queued for it (`events.redeliver` sends one)."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_switch(endpoint_id, "/disable"), options).data

    def enable(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> WebhookEndpoint:
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_switch(endpoint_id, "/enable"), options).data

    def rotate_secret(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> WebhookSecret:
        """A new signing secret; the previous one keeps signing beside it for 24 hours, so a receiver can roll without a miss."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_rotate_secret(endpoint_id), options).data

    def test(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Event:
        """Sends a `webhook.test` event to this endpoint only; answers the event queued."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_test(endpoint_id), options).data

    def recover(
        self,
        endpoint_id: str,
        *,
        since: datetime,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> int:
        """Sends again every delivery to this endpoint that failed, of events since `since` (aware); answers how many were queued."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return self._transport.send(_recover(endpoint_id, since), options).data


class WebhookEndpointsWithRawResponse:
    """`webhook_endpoints.with_raw_response`: WebhookEndpoints' methods answering the whole answer, a listing its first page's."""

    def __init__(self, endpoints: WebhookEndpoints) -> None:
        self.create = raw(endpoints.create)
        self.list = raw_first_page(endpoints.list)
        self.get = raw(endpoints.get)
        self.delete = raw(endpoints.delete)
        self.disable = raw(endpoints.disable)
        self.enable = raw(endpoints.enable)
        self.rotate_secret = raw(endpoints.rotate_secret)
        self.test = raw(endpoints.test)
        self.recover = raw(endpoints.recover)


class AsyncWebhookEndpoints:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport
        self.with_raw_response = AsyncWebhookEndpointsWithRawResponse(self)

    async def create(
        self,
        *,
        url: str,
        events: Sequence[NewWebhookEndpointEventsItem],
        description: str | None = None,
        idempotency_key: str | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> CreatedWebhookEndpoint:
        """Adds an endpoint; the answer holds its signing secret (`whsec_…`), shown this once: keep it."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_create(url, events, description, idempotency_key), options)).data

    def list(
        self,
        *,
        limit: int | None = None,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> AsyncPager[WebhookEndpoint]:
        """Every endpoint, oldest first."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return list_async_pages(self._transport, "/webhook-endpoints", {"limit": limit}, WebhookEndpoint.from_wire, options)

    async def get(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> WebhookEndpoint:
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_get(endpoint_id), options)).data

    async def delete(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        """Removes the endpoint: nothing more is sent to it."""
        options = CallOptions(timeout, max_retries, extra_headers)
        await self._transport.send(_delete(endpoint_id), options)

    async def disable(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> WebhookEndpoint:
        """Stops deliveries until enabled again; events meanwhile are not queued for it (`events.redeliver` sends one)."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_switch(endpoint_id, "/disable"), options)).data

    async def enable(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> WebhookEndpoint:
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_switch(endpoint_id, "/enable"), options)).data

    async def rotate_secret(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> WebhookSecret:
        """A new signing secret; the previous one keeps signing beside it for 24 hours, so a receiver can roll without a miss."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_rotate_secret(endpoint_id), options)).data

    async def test(
        self,
        endpoint_id: str,
        *,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> Event:
        """Sends a `webhook.test` event to this endpoint only; answers the event queued."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_test(endpoint_id), options)).data

    async def recover(
        self,
        endpoint_id: str,
        *,
        since: datetime,
        timeout: Timeout | None = None,
        max_retries: int | None = None,
        extra_headers: Mapping[str, str] | None = None,
    ) -> int:
        """Sends again every delivery to this endpoint that failed, of events since `since` (aware); answers how many were queued."""
        options = CallOptions(timeout, max_retries, extra_headers)
        return (await self._transport.send(_recover(endpoint_id, since), options)).data


class AsyncWebhookEndpointsWithRawResponse:
    """`webhook_endpoints.with_raw_response`: AsyncWebhookEndpoints' methods answering the whole answer, a listing its first page's."""

    def __init__(self, endpoints: AsyncWebhookEndpoints) -> None:
        self.create = async_raw(endpoints.create)
        self.list = async_raw_first_page(endpoints.list)
        self.get = async_raw(endpoints.get)
        self.delete = async_raw(endpoints.delete)
        self.disable = async_raw(endpoints.disable)
        self.enable = async_raw(endpoints.enable)
        self.rotate_secret = async_raw(endpoints.rotate_secret)
        self.test = async_raw(endpoints.test)
        self.recover = async_raw(endpoints.recover)
