"""The pet store's lifecycle (issue 47 part 5) against the real service, with the sync client and the async one:
pets.update and pets.delete, store.orders.update and cancel, held to an ETag by `if_match=` and retried safely
by their Idempotency-Key; the ETag of every pet and order as `_etag`; a 304 to `if_none_match=` answered as
NOT_MODIFIED, never an error nor a retry; and the new events, typed."""

from __future__ import annotations

import dataclasses
import logging
import re
import secrets
from collections.abc import Callable
from datetime import datetime, timezone

import pytest

from petstore import (
    NOT_MODIFIED,
    ConflictError,
    NotFoundError,
    OrderUpdatedEvent,
    PetDeletedEvent,
    PetUpdatedEvent,
    PreconditionFailedError,
)
from support import resources as expected
from support.both import Connect, call
from support.fault_proxy import FaultProxy
from support.receiver import Receiver

ETAG = re.compile(r'"[\w-]+"')
Proxies = Callable[..., FaultProxy]
pytestmark = pytest.mark.filterwarnings("ignore::petstore.PetStoreDeprecationWarning")


async def test_updates_a_pet_held_to_the_etag_it_was_read_with_and_refuses_a_stale_one_with_the_current_etag(
    connect: Connect,
) -> None:
    async with connect() as petstore:
        rex = await call(petstore.pets.create(name="Rex", category_id=3))
        assert rex._etag is not None and ETAG.fullmatch(rex._etag)
        assert rex.to_wire() == expected.pet(id=rex.id, name="Rex", categoryId=3)
        assert "_etag" not in repr(rex) and "_etag" not in dataclasses.asdict(rex)

        renamed = await call(petstore.pets.with_raw_response.update(rex.id, name="Rex II", if_match=rex._etag))
        assert renamed.status == 200 and renamed.data == dataclasses.replace(rex, name="Rex II")
        assert renamed.data._etag == renamed.headers["etag"] != rex._etag
        assert renamed.data._request_id == renamed.request_id

        with pytest.raises(PreconditionFailedError) as stale:
            await call(petstore.pets.update(rex.id, status="sold", if_match=rex._etag))
        assert (stale.value.status, stale.value.code, stale.value.current_etag) == (412, "PRECONDITION_FAILED", renamed.data._etag)
        assert f"current_etag='{renamed.data._etag}'" in repr(stale.value)
        assert (await call(petstore.pets.get(rex.id))).status == "available", "nothing changed"

        sold = await call(petstore.pets.update(rex.id, status="sold", if_match=stale.value.current_etag))
        assert sold.status == "sold"
        with pytest.raises(ConflictError) as final:
            await call(petstore.pets.update(rex.id, status="available", if_match="*"))
        assert (final.value.status, final.value.code) == (409, "INVALID_TRANSITION")


async def test_moves_an_order_to_delivered_which_sells_its_pet_and_cancels_another_which_frees_its_pet(connect: Connect) -> None:
    async with connect() as petstore:
        pet = await call(petstore.pets.create(name="Moved", category_id=1))
        order = await call(petstore.store.orders.create(pet_id=pet.id, quantity=1))
        assert order._etag is not None and ETAG.fullmatch(order._etag)
        with pytest.raises(ConflictError, match="not available") as unavailable:
            await call(petstore.store.orders.create(pet_id=pet.id, quantity=1))
        assert unavailable.value.code == "PET_NOT_AVAILABLE"
        with pytest.raises(ConflictError) as held:
            await call(petstore.pets.update(pet.id, status="available"))
        assert held.value.code == "PET_HAS_OPEN_ORDER"

        ship_date = datetime(2026, 12, 1, 9, 30, tzinfo=timezone.utc)
        approved = await call(petstore.store.orders.update(order.id, status="approved", ship_date=ship_date, if_match=order._etag))
        assert (approved.status, approved.ship_date, approved.complete) == ("approved", ship_date, False)
        with pytest.raises(PreconditionFailedError) as stale:
            await call(petstore.store.orders.update(order.id, status="delivered", if_match=order._etag))
        assert stale.value.current_etag == approved._etag
        delivered = await call(petstore.store.orders.update(order.id, status="delivered", if_match=approved._etag))
        assert (delivered.status, delivered.complete) == ("delivered", True)
        with pytest.raises(ConflictError) as late:
            await call(petstore.store.orders.cancel(order.id))
        assert late.value.code == "INVALID_TRANSITION"
        assert (await call(petstore.pets.get(pet.id))).status == "sold"

        other = await call(petstore.pets.create(name="Freed", category_id=1))
        holding = await call(petstore.store.orders.create(pet_id=other.id, quantity=2))
        with pytest.raises(PreconditionFailedError):
            await call(petstore.store.orders.cancel(holding.id, if_match=order._etag))
        cancelled = await call(petstore.store.orders.with_raw_response.cancel(holding.id, if_match=holding._etag))
        assert (cancelled.status, cancelled.data.id, cancelled.data.status) == (200, holding.id, "cancelled")
        assert cancelled.data._etag == cancelled.headers["etag"]
        assert (await call(petstore.pets.get(other.id))).status == "available"


async def test_deletes_a_pet_no_order_names_held_to_its_etag_and_refuses_one_that_orders_name(connect: Connect) -> None:
    async with connect() as petstore:
        pet = await call(petstore.pets.create(name="Deleted", category_id=2))
        renamed = await call(petstore.pets.update(pet.id, name="Deleted again"))
        with pytest.raises(PreconditionFailedError) as stale:
            await call(petstore.pets.delete(pet.id, if_match=pet._etag))
        assert stale.value.current_etag == renamed._etag
        deleted = await call(petstore.pets.with_raw_response.delete(pet.id, if_match=renamed._etag))
        assert (deleted.status, deleted.data) == (204, None)
        with pytest.raises(NotFoundError) as gone:
            await call(petstore.pets.get(pet.id))
        assert gone.value.code == "PET_NOT_FOUND"

        ordered = await call(petstore.pets.create(name="Kept", category_id=2))
        await call(petstore.store.orders.cancel((await call(petstore.store.orders.create(pet_id=ordered.id, quantity=1))).id))
        with pytest.raises(ConflictError) as kept:
            await call(petstore.pets.delete(ordered.id))
        assert kept.value.code == "PET_HAS_ORDERS"


async def test_answers_not_modified_to_if_none_match_while_an_order_a_pet_or_a_page_is_as_it_was_once_and_logged(
    connect: Connect, behind_faults: Proxies, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="petstore")
    proxy = behind_faults(lambda method, path, nth: "forward")
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        pet = await call(petstore.pets.create(name="Polled", category_id=5))
        order = await call(petstore.store.orders.create(pet_id=pet.id, quantity=1))
        assert order._etag is not None

        assert await call(petstore.store.orders.get(order.id, if_none_match=order._etag)) is NOT_MODIFIED
        same = await call(petstore.store.orders.with_raw_response.get(order.id, if_none_match=order._etag))
        assert (same.data, same.status, same.headers["etag"]) == (NOT_MODIFIED, 304, order._etag) and same.request_id
        held = await call(petstore.pets.get(pet.id))
        assert held.status == "pending" and held._etag is not None
        assert await call(petstore.pets.get(pet.id, if_none_match=held._etag)) is NOT_MODIFIED
        assert await call(petstore.pets.get(pet.id, if_none_match='"another"')) == held
        assert [call for call in proxy.calls if call.startswith("GET")] == [
            f"GET /v1/store/orders/{order.id}",
            f"GET /v1/store/orders/{order.id}",
            f"GET /v1/pets/{pet.id}",
            f"GET /v1/pets/{pet.id}",
            f"GET /v1/pets/{pet.id}",
        ], "a 304 is never retried"
        said = [record.getMessage() for record in caplog.records if record.name == "petstore"]
        told = rf"GET /store/orders/{order.id}: 304 Not Modified in \d+ ms, request \S+ \(attempt 1 of 3\)$"
        assert any(re.match(told, line) for line in said)

        approved = await call(petstore.store.orders.update(order.id, status="approved"))
        changed = await call(petstore.store.orders.get(order.id, if_none_match=order._etag))
        assert changed is not NOT_MODIFIED and changed == approved and changed._etag == approved._etag

        # Only this test approves orders: their first page changes when it approves one more.
        page = await call(petstore.store.orders.list(status="approved", limit=100).first_page())
        assert page._etag is not None and ETAG.fullmatch(page._etag) and approved in page.data
        assert await call(petstore.store.orders.list(status="approved", limit=100, if_none_match=page._etag)) is NOT_MODIFIED
        raw_page = await call(petstore.store.orders.with_raw_response.list(status="approved", limit=100, if_none_match=page._etag))
        assert (raw_page.status, raw_page.data) == (304, NOT_MODIFIED)
        another = await call(petstore.pets.create(name="Polled too", category_id=5))
        placed = await call(petstore.store.orders.create(pet_id=another.id, quantity=1))
        more = await call(petstore.store.orders.update(placed.id, status="approved"))
        fresh = await call(petstore.store.orders.list(status="approved", limit=100, if_none_match=page._etag))
        assert fresh is not NOT_MODIFIED and fresh.data == [*page.data, more] and fresh._etag != page._etag
        # Given no tag to hold (a page whose ETag a proxy dropped), it answers the first page, at once, as asked.
        unconditional = await call(petstore.store.orders.list(status="approved", limit=100, if_none_match=None))
        assert unconditional is not NOT_MODIFIED and unconditional.data == fresh.data


async def test_retries_a_change_and_a_cancel_whose_answers_were_lost_under_their_idempotency_key_each_carried_out_once(
    connect: Connect, behind_faults: Proxies
) -> None:
    proxy = behind_faults(lambda method, path, nth: "lose-answer" if method != "GET" and nth == 0 else "forward")
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        pet = await call(petstore.pets.create(name="Retried", category_id=1))
        order = await call(petstore.store.orders.create(pet_id=pet.id, quantity=1))
        # The first attempt approved it: held to the ETag it had then, a retry without the key would be 412.
        approved = await call(petstore.store.orders.with_raw_response.update(order.id, status="approved", if_match=order._etag))
        assert (approved.data.status, approved.headers.get("idempotent-replayed")) == ("approved", "true")
        # The first attempt cancelled it: a retry without the key would be 409 INVALID_TRANSITION.
        cancelled = await call(petstore.store.orders.with_raw_response.cancel(order.id))
        assert (cancelled.data.status, cancelled.headers.get("idempotent-replayed")) == ("cancelled", "true")
    changes = [seen for seen in proxy.seen if seen.call.startswith(("PATCH", "POST /v1/store/orders/"))]
    assert [seen.call for seen in changes] == [f"PATCH /v1/store/orders/{order.id}"] * 2 + [f"POST /v1/store/orders/{order.id}/cancel"] * 2
    assert changes[0].idempotency_key and changes[0].idempotency_key == changes[1].idempotency_key
    assert changes[2].idempotency_key and changes[2].idempotency_key == changes[3].idempotency_key != changes[0].idempotency_key

    async with connect() as petstore:
        key = f"py-rename-{secrets.token_hex(4)}"
        first = await call(petstore.pets.update(pet.id, name="Once", idempotency_key=key))
        again = await call(petstore.pets.with_raw_response.update(pet.id, name="Once", idempotency_key=key))
        assert (again.data, again.headers.get("idempotent-replayed")) == (first, "true")


async def test_hears_pet_updated_order_updated_and_pet_deleted_typed_with_what_changed(connect: Connect, receiver: Receiver) -> None:
    path = f"/lifecycle-{secrets.token_hex(4)}"
    async with connect() as petstore:
        endpoint = await call(
            petstore.webhook_endpoints.create(url=receiver.url + path, events=["pet.updated", "pet.deleted", "order.updated"])
        )
        try:
            pet = await call(petstore.pets.create(name="Heard", category_id=4))
            order = await call(petstore.store.orders.create(pet_id=pet.id, quantity=1))
            await call(petstore.store.orders.cancel(order.id))
            await call(petstore.pets.delete((await call(petstore.pets.create(name="Gone", category_id=4))).id))
            # placeOrder holds the pet (pet.updated), cancelOrder moves the order (order.updated) and frees it (pet.updated), deletePet.
            deliveries = receiver.wait_for(path, 4)
        finally:
            await call(petstore.webhook_endpoints.delete(endpoint.id))
    told = []
    for delivery in deliveries:
        event = petstore.webhooks.verify(delivery.body, delivery.headers, endpoint.secret)
        if isinstance(event, PetUpdatedEvent):
            told.append(f"pet {event.data.object.status} was {(event.data.previous_attributes or {}).get('status')}")
        elif isinstance(event, OrderUpdatedEvent):
            told.append(f"order {event.data.object.status} was {(event.data.previous_attributes or {}).get('status')}")
        elif isinstance(event, PetDeletedEvent):
            told.append(f"pet {event.data.object.name} deleted")
    assert sorted(told) == ["order cancelled was placed", "pet Gone deleted", "pet available was pending", "pet pending was available"]

