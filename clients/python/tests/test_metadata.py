"""Metadata on pets and orders (1.5.0), with the sync client and the async one: set on create, merged by update
(a key given None removed, `metadata=None` every key), a listing filtered by one pair; and what an older server
answered, or an event recorded before 1.5.0, which has none, read as `{}`."""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Callable
from typing import Any

from petstore import NOT_MODIFIED, OrderPlacedEvent, Pet, PetUpdatedEvent, webhooks
from support import resources as expected
from support.both import Connect, call, collect, pages_of
from support.fault_proxy import Answer, FaultProxy

Proxies = Callable[..., FaultProxy]
SECRET = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


async def test_sets_metadata_on_create_and_answers_it_in_every_pet_and_order(connect: Connect) -> None:
    async with connect() as petstore:
        plain = await call(petstore.pets.create(name="Plain", category_id=1))
        assert plain.metadata == {} and plain.to_wire()["metadata"] == {}
        tagged = await call(petstore.pets.create(name="Tagged", category_id=1, metadata={"erp_id": "A-17", "shop.sku": "Ünï 🐕"}))
        assert tagged.metadata == {"erp_id": "A-17", "shop.sku": "Ünï 🐕"}
        order = await call(petstore.store.orders.create(pet_id=tagged.id, quantity=1, metadata={"erp_order": "SO-1"}))
        assert order.metadata == {"erp_order": "SO-1"}
        assert (await call(petstore.store.orders.get(order.id))).metadata == {"erp_order": "SO-1"}


async def test_merges_metadata_on_update_a_key_given_none_removed_and_none_removing_every_key(connect: Connect) -> None:
    async with connect() as petstore:
        pet = await call(petstore.pets.create(name="Merged", category_id=1, metadata={"a": "1", "b": "2"}))
        merged = await call(petstore.pets.update(pet.id, metadata={"b": "two", "c": "3", "a": None}))
        assert merged.metadata == {"b": "two", "c": "3"}
        renamed = await call(petstore.pets.update(pet.id, name="Merged II"))
        assert renamed.metadata == {"b": "two", "c": "3"}, "left out, metadata is unchanged"
        cleared = await call(petstore.pets.update(pet.id, metadata=None, if_match=renamed._etag))
        assert (cleared.name, cleared.metadata) == ("Merged II", {})

        order = await call(petstore.store.orders.create(pet_id=pet.id, quantity=1, metadata={"erp_order": "SO-2"}))
        cancelled = await call(petstore.store.orders.cancel(order.id))
        noted = await call(petstore.store.orders.update(cancelled.id, metadata={"refund": "RF-9"}, if_match=cancelled._etag))
        assert (noted.status, noted.metadata) == ("cancelled", {"erp_order": "SO-2", "refund": "RF-9"})
        assert (await call(petstore.store.orders.update(order.id, metadata=None))).metadata == {}


async def test_lists_the_pets_and_orders_of_one_metadata_pair_on_every_page(connect: Connect) -> None:
    batch = f"batch-{secrets.token_hex(4)}"
    async with connect() as petstore:
        pets = [await call(petstore.pets.create(name=f"Batch {n}", category_id=1, metadata={"batch": batch})) for n in range(5)]
        await call(petstore.pets.create(name="Other", category_id=1, metadata={"batch": f"{batch}-other"}))
        pager = petstore.pets.list(metadata={"batch": batch}, limit=2)
        assert [pet.id for pet in await collect(pager)] == [pet.id for pet in pets]
        assert [len(page.data) for page in await pages_of(petstore.pets.list(metadata={"batch": batch}, limit=2))] == [2, 2, 1]
        await call(petstore.pets.update(pets[1].id, status="sold"))
        sold = await collect(petstore.pets.list(status="sold", metadata={"batch": batch}))
        assert [pet.id for pet in sold] == [pets[1].id]

        first = await call(petstore.pets.with_raw_response.list(metadata={"batch": batch}, limit=2))
        assert [pet.id for pet in first.data.data] == [pet.id for pet in pets[:2]] and first.data._etag is not None
        assert await call(petstore.pets.list(metadata={"batch": batch}, limit=2, if_none_match=first.data._etag)) is NOT_MODIFIED

        orders = [await call(petstore.store.orders.create(pet_id=pet.id, quantity=1, metadata={"batch": batch})) for pet in pets[2:]]
        listed = await collect(petstore.store.orders.list(metadata={"batch": batch}, limit=2))
        assert [order.id for order in listed] == [order.id for order in orders]


async def test_sends_the_filter_as_metadata_key_in_brackets(connect: Connect, behind_faults: Proxies) -> None:
    proxy = behind_faults(lambda method, path, nth: Answer(200, []))
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        await call(petstore.pets.with_raw_response.list(metadata={"erp_id": "A-17"}, status="available"))
        await call(petstore.store.orders.with_raw_response.list(metadata={"erp_id": "A 17/ü"}))
    sent = [seen.query for seen in proxy.seen]
    assert sent == ["status=available&metadata%5Berp_id%5D=A-17", "metadata%5Berp_id%5D=A+17%2F%C3%BC"]


async def test_reads_a_pet_and_an_order_of_a_server_before_1_5_0_with_metadata_as_empty(
    connect: Connect, behind_faults: Proxies
) -> None:
    old_pet = {"id": 7, "name": "Old", "categoryId": 2, "status": "available"}
    old_order = {"id": 9, "petId": 7, "quantity": 1, "status": "placed", "complete": False}

    def older_server(method: str, path: str, nth: int) -> Any:
        return Answer(200, [old_pet]) if path == "/v1/pets" else Answer(200, old_order)

    proxy = behind_faults(older_server)
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        [pet] = await collect(petstore.pets.list())
        order = await call(petstore.store.orders.get(9))
    assert pet == expected.pet_model(id=7, name="Old", category_id=2, status="available")
    assert order == expected.order_model(id=9, pet_id=7, quantity=1, status="placed", complete=False)


def test_reads_an_event_recorded_before_1_5_0_with_metadata_as_empty() -> None:
    pet = {"id": 7, "name": "Rex", "categoryId": 3, "status": "pending"}
    updated = {
        "id": "evt_before_metadata",
        "type": "pet.updated",
        "createdAt": "2026-11-20T10:00:00.000Z",
        "apiVersion": "1.4.0",
        "data": {"object": pet, "previousAttributes": {"status": "available"}},
    }
    placed = {
        **updated,
        "id": "evt_order_before_metadata",
        "type": "order.placed",
        "data": {"object": {"id": 1, "petId": 7, "quantity": 1, "status": "placed", "complete": False}},
    }
    read = [webhooks.verify(json.dumps(event), webhooks.sign(json.dumps(event), SECRET), SECRET) for event in (updated, placed)]
    assert isinstance(read[0], PetUpdatedEvent) and isinstance(read[1], OrderPlacedEvent)
    assert (read[0].api_version, read[0].data.object.metadata, read[0].data.previous_attributes) == ("1.4.0", {}, {"status": "available"})
    assert read[1].data.object == expected.order_model(id=1, pet_id=7, quantity=1, status="placed", complete=False)
    # A model made without the field, as a program written before 1.5.0 makes one, is a model still.
    assert Pet(id=7, name="Rex", category_id=3, status="pending") == read[0].data.object
