"""Webhook endpoints and events against the real service, its deliveries received on 127.0.0.1 and verified."""

from __future__ import annotations

import base64
import contextlib
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime, timedelta, timezone

import pytest

from petstore import (
    CreatedWebhookEndpoint,
    Event,
    EventWithDeliveries,
    NewWebhookEndpointEventsItem,
    NotFoundError,
    OrderPlacedEvent,
    PetCreatedEvent,
    WebhookTestEvent,
    WebhookVerificationError,
    webhooks,
)
from support.both import Client, Connect, call, collect, eventually
from support.receiver import Receiver

OTHER_SECRET = "whsec_" + base64.b64encode(b"not the endpoint's secret, 32 b.").decode()


@asynccontextmanager
async def endpoint_at(
    petstore: Client, url: str, events: Sequence[NewWebhookEndpointEventsItem], description: str | None = None
) -> AsyncIterator[CreatedWebhookEndpoint]:
    """An endpoint of the test's own, deleted after it whatever happens, so that no later test's events go to it."""
    endpoint = await call(petstore.webhook_endpoints.create(url=url, events=events, description=description))
    try:
        yield endpoint
    finally:
        with contextlib.suppress(NotFoundError):
            await call(petstore.webhook_endpoints.delete(endpoint.id))


async def test_delivers_each_event_signed_so_that_verify_answers_it_typed_and_logs_it(
    connect: Connect, receiver: Receiver
) -> None:
    path = f"/deliveries-{secrets.token_hex(4)}"
    async with connect() as petstore, endpoint_at(
        petstore, receiver.url + path, ["pet.created", "order.placed"], "pytest"
    ) as endpoint:
        assert isinstance(endpoint, CreatedWebhookEndpoint) and endpoint.enabled
        assert endpoint.secret.startswith("whsec_") and endpoint.events == ["pet.created", "order.placed"]
        shown = await call(petstore.webhook_endpoints.get(endpoint.id))
        assert (shown.id, shown.url, shown.description, shown.created_at) == (endpoint.id, endpoint.url, "pytest", endpoint.created_at)
        assert shown in await collect(petstore.webhook_endpoints.list(limit=2))

        pet = await call(petstore.pets.create(name="Signed", category_id=2))
        order = await call(petstore.store.orders.create(pet_id=pet.id, quantity=2))
        deliveries = receiver.wait_for(path, 2)
        events = [petstore.webhooks.verify(delivery.body, delivery.headers, endpoint.secret) for delivery in deliveries]
        created = next(event for event in events if isinstance(event, PetCreatedEvent))
        placed = next(event for event in events if isinstance(event, OrderPlacedEvent))
        assert (created.data.object, placed.data.object) == (pet, order), "each event carries the object as the 201 answered it"
        assert [delivery.headers["webhook-id"] for delivery in deliveries] == [event.id for event in events]

        delivery = deliveries[events.index(created)]
        with pytest.raises(WebhookVerificationError, match="No webhook-signature matches"):
            webhooks.verify(delivery.body.replace(b"Signed", b"Forged"), delivery.headers, endpoint.secret)
        with pytest.raises(WebhookVerificationError, match="No webhook-signature matches"):
            webhooks.verify(delivery.body, delivery.headers, OTHER_SECRET)
        with pytest.raises(WebhookVerificationError, match="from now"):
            webhooks.verify(delivery.body, delivery.headers, endpoint.secret, now=datetime.now(timezone.utc) + timedelta(minutes=6))

        logged = await eventually(
            lambda: call(petstore.events.get(created.id)), lambda event: event.deliveries[0].state == "delivered"
        )
        assert isinstance(logged, EventWithDeliveries) and logged.data.object == pet.to_wire()
        [logged_delivery] = logged.deliveries
        assert logged_delivery.endpoint_id == endpoint.id
        assert [(a.status, a.response_body) for a in logged_delivery.attempts] == [(200, "answered 200")]
        assert created.id in [event.id for event in await collect(petstore.events.list(type="pet.created", limit=100))]

        assert await call(petstore.events.redeliver(created.id, endpoint_id=endpoint.id)) == 1
        again = receiver.wait_for(path, 3)[2]
        assert again.headers["webhook-id"] == created.id
        assert webhooks.verify(again.body, again.headers, endpoint.secret) == created

        await call(petstore.webhook_endpoints.delete(endpoint.id))
        with pytest.raises(NotFoundError) as gone:
            await call(petstore.webhook_endpoints.get(endpoint.id))
        assert gone.value.code == "WEBHOOK_ENDPOINT_NOT_FOUND"


async def test_rolls_a_secret_with_both_signing_meanwhile_and_switches_an_endpoint_off_and_on(
    connect: Connect, receiver: Receiver
) -> None:
    path = f"/rolled-{secrets.token_hex(4)}"
    async with connect() as petstore, endpoint_at(petstore, receiver.url + path, ["*"]) as endpoint:
        assert not (await call(petstore.webhook_endpoints.disable(endpoint.id))).enabled
        assert (await call(petstore.webhook_endpoints.enable(endpoint.id))).enabled

        rolled = await call(petstore.webhook_endpoints.rotate_secret(endpoint.id))
        assert rolled.secret.startswith("whsec_") and rolled.secret != endpoint.secret
        assert rolled.previous_secret_expires_at > datetime.now(timezone.utc) + timedelta(hours=23)

        queued = await call(petstore.webhook_endpoints.test(endpoint.id))
        assert isinstance(queued, Event) and queued.type == "webhook.test"
        [delivery] = receiver.wait_for(path, 1)
        assert len(delivery.headers["webhook-signature"].split(" ")) == 2, "one signature under each secret"
        for held in ([rolled.secret], [endpoint.secret], [OTHER_SECRET, rolled.secret]):
            event = webhooks.verify(delivery.body, delivery.headers, held)
            assert isinstance(event, WebhookTestEvent) and event.id == queued.id
            assert event.data.object.endpoint_id == endpoint.id
        with pytest.raises(WebhookVerificationError):
            webhooks.verify(delivery.body, delivery.headers, [OTHER_SECRET])


async def test_recovers_the_deliveries_that_failed_once_the_receiver_is_back(connect: Connect, receiver: Receiver) -> None:
    path = f"/failing-{secrets.token_hex(4)}"
    receiver.status = lambda at, nth: 500 if at == path and nth < 3 else 200
    since = datetime.now(timezone.utc) - timedelta(minutes=1)
    async with connect() as petstore, endpoint_at(petstore, receiver.url + path, ["order.placed"]) as endpoint:
        pet = await call(petstore.pets.create(name="Shipped late", category_id=1))
        order = await call(petstore.store.orders.create(pet_id=pet.id, quantity=1))
        event_id = receiver.wait_for(path, 3)[0].headers["webhook-id"]
        failed = await eventually(lambda: call(petstore.events.get(event_id)), lambda event: event.deliveries[0].state == "failed")
        assert [(a.status, a.response_body) for a in failed.deliveries[0].attempts] == [(500, "answered 500")] * 3

        # Nothing ever reached it, so the service switches it off (just after it records the last attempt,
        # so a read in between may still find it on); it is switched on again, then recovered.
        switched_off = await eventually(lambda: call(petstore.webhook_endpoints.get(endpoint.id)), lambda found: not found.enabled)
        assert not switched_off.enabled and switched_off.disabled_reason
        await call(petstore.webhook_endpoints.enable(endpoint.id))
        assert await call(petstore.webhook_endpoints.recover(endpoint.id, since=since)) == 1
        recovered = receiver.wait_for(path, 4)[3]
        event = webhooks.verify(recovered.body, recovered.headers, endpoint.secret)
        assert isinstance(event, OrderPlacedEvent) and (event.id, event.data.object) == (event_id, order)
