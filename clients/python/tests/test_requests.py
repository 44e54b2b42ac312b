"""The request log (1.5.0), with the sync client and the async one: `requests.list` with its filters and pages,
`requests.get`, a failed call found by its error's request id, and the request that caused an event."""

from __future__ import annotations

import base64
import json
import secrets
import time
from collections.abc import Callable
from typing import Any

import pytest

from petstore import NOT_MODIFIED, BadRequestError, EventCause, EventRequest, NotFoundError, PetCreatedEvent, PetStoreError, RequestLogEntry, webhooks
from support.both import Connect, call, collect, pages_of
from support.fault_proxy import Answer, FaultProxy
from support.receiver import Receiver

Proxies = Callable[..., FaultProxy]
SECRET = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


async def failure(calling: Callable[[], Any]) -> PetStoreError:
    """What `calling()` raised (the sync client) or what it answered raised when awaited (the async one): a PetStoreError."""
    with pytest.raises(PetStoreError) as raised:
        await call(calling())
    return raised.value


async def test_finds_a_failed_call_by_its_error_s_request_id_waiting_for_its_entry(connect: Connect) -> None:
    async with connect() as petstore:
        error = await failure(lambda: petstore.pets.create(name="Rex", category_id=0))
        assert isinstance(error, BadRequestError) and error.request_id is not None
        entry = await call(petstore.requests.get(error.request_id, wait=2))
        whole = await call(petstore.requests.with_raw_response.get(error.request_id))
    assert isinstance(entry, RequestLogEntry) and entry == whole.data
    assert (entry.id, entry.method, entry.path, entry.operation, entry.status) == (error.request_id, "POST", "/v1/pets", "createPet", 400)
    assert entry.error is not None and (entry.error.code, entry.error.message) == ("VALIDATION_FAILED", error.message)
    assert entry.idempotency_key is not None and not entry.replayed  # the key the client made for the create
    assert entry.created_at.tzinfo is not None and entry.duration_ms >= 0
    assert entry._request_id is not None and whole.status == 200


async def test_answers_not_modified_for_an_entry_as_held_and_the_entry_for_another_tag(connect: Connect) -> None:
    async with connect() as petstore:
        error = await failure(lambda: petstore.pets.create(name="Rex", category_id=0))
        assert error.request_id is not None
        entry = await call(petstore.requests.get(error.request_id, wait=2))
        assert entry._etag is not None
        assert await call(petstore.requests.get(error.request_id, if_none_match=entry._etag)) is NOT_MODIFIED
        whole = await call(petstore.requests.with_raw_response.get(error.request_id, if_none_match=entry._etag))
        assert (whole.status, whole.data, whole.headers.get("etag")) == (304, NOT_MODIFIED, entry._etag)
        again = await call(petstore.requests.get(error.request_id, if_none_match='"another"'))
        assert isinstance(again, RequestLogEntry) and again == entry and again._etag == entry._etag
        assert await call(petstore.requests.get(error.request_id, if_none_match=None)) == entry


async def test_raises_not_found_for_an_id_not_in_the_log_at_once_or_after_the_wait(connect: Connect) -> None:
    unknown = f"never-made-{secrets.token_hex(4)}"
    async with connect() as petstore:
        started = time.monotonic()
        error = await failure(lambda: petstore.requests.get(unknown))
        assert time.monotonic() - started < 0.5
        assert isinstance(error, NotFoundError) and (error.status, error.code) == (404, "REQUEST_NOT_FOUND")
        waited = await failure(lambda: petstore.requests.get(unknown, wait=0.4))
        assert time.monotonic() - started >= 0.4 and waited.code == "REQUEST_NOT_FOUND"
        with pytest.raises(ValueError, match="wait must be 0 seconds or more"):
            await call(petstore.requests.get(unknown, wait=-1))


async def test_lists_newest_first_page_by_page_by_status_operation_and_idempotency_key(connect: Connect) -> None:
    run = secrets.token_hex(4)
    async with connect() as petstore:
        missing = []
        for i in range(5):
            headers = {"X-Request-Id": f"requests-{run}-missing-{i}"}
            missing.append((await failure(lambda: petstore.store.orders.get(987_000 + i, extra_headers=headers))).request_id)
        assert missing == [f"requests-{run}-missing-{i}" for i in range(5)]
        key = f"requests-{run}-key"
        first = await call(petstore.pets.create(name="Logged", category_id=2, idempotency_key=key))
        replay = await call(petstore.pets.with_raw_response.create(name="Logged", category_id=2, idempotency_key=key))
        assert replay.request_id is not None and missing[-1] is not None
        await call(petstore.requests.get(replay.request_id, wait=2))
        await call(petstore.requests.get(missing[-1], wait=2))

        # Other tests of the session fail getOrder too, before this one: its five are the newest.
        pages = await pages_of(petstore.requests.list(operation="getOrder", status=404, limit=2))
        assert [entry.id for entry in pages[0].data] == [missing[4], missing[3]] and pages[0].has_next_page()
        walked = [entry.id for page in pages for entry in page.data]
        assert [entry_id for entry_id in walked if entry_id in missing] == missing[::-1]
        in_class = await collect(petstore.requests.list(status="4xx", operation="getOrder"))
        assert set(missing) <= {entry.id for entry in in_class} and all(400 <= entry.status < 500 for entry in in_class)
        assert await collect(petstore.requests.list(status="2xx", operation="getOrder")) == []
        keyed = await collect(petstore.requests.list(idempotency_key=key))
        assert [(entry.id, entry.status, entry.replayed) for entry in keyed] == [
            (replay.request_id, 201, True),
            (first._request_id, 201, False),
        ]
        refused = await failure(lambda: petstore.requests.with_raw_response.list(status="4x"))
        assert (refused.status, refused.code) == (400, "VALIDATION_FAILED")


async def test_names_the_request_that_caused_an_event_on_events_list_and_on_a_delivery(connect: Connect, receiver: Receiver) -> None:
    path = f"/caused-{secrets.token_hex(4)}"
    key = f"caused-{secrets.token_hex(4)}"
    async with connect() as petstore:
        endpoint = await call(petstore.webhook_endpoints.create(url=receiver.url + path, events=["pet.created"]))
        try:
            pet = await call(petstore.pets.create(name="Caused", category_id=4, idempotency_key=key))
            [delivery] = receiver.wait_for(path, 1)
        finally:
            await call(petstore.webhook_endpoints.delete(endpoint.id))
        event = petstore.webhooks.verify(delivery.body, delivery.headers, endpoint.secret)
        assert isinstance(event, PetCreatedEvent) and isinstance(event.request, EventRequest)
        assert (event.request.id, event.request.idempotency_key) == (pet._request_id, key)
        [listed] = [candidate for candidate in await collect(petstore.events.list(type="pet.created")) if candidate.id == event.id]
        assert listed.request is not None and (listed.request.id, listed.request.idempotency_key) == (pet._request_id, key)
        # One class on a delivery and on events.list, by either of the names 1.5.0 gave it.
        assert type(listed.request) is type(event.request) is EventCause and EventRequest is EventCause
        # The request it names is in the log.
        entry = await call(petstore.requests.get(event.request.id, wait=2))
        assert (entry.operation, entry.status, entry.idempotency_key) == ("createPet", 201, key)


def test_reads_an_event_recorded_before_1_5_0_without_a_request_and_one_the_service_made_with_none() -> None:
    before: dict[str, Any] = {
        "id": "evt_before_requests",
        "type": "pet.created",
        "createdAt": "2026-11-20T10:00:00.000Z",
        "apiVersion": "1.4.0",
        "data": {"object": {"id": 7, "name": "Rex", "categoryId": 3, "status": "available"}},
    }
    own = {**before, "type": "webhook.test", "apiVersion": "1.5.0", "request": None, "data": {"object": {"endpointId": "we_1"}}}
    read = [webhooks.verify(json.dumps(event), webhooks.sign(json.dumps(event), SECRET), SECRET) for event in (before, own)]
    assert [event.request for event in read] == [None, None]
    assert "request" not in read[0].to_wire()


async def test_reads_events_of_a_server_before_1_5_0_without_a_request(connect: Connect, behind_faults: Proxies) -> None:
    older = {
        "id": "evt_older_server",
        "type": "pet.created",
        "createdAt": "2026-11-20T10:00:00.000Z",
        "apiVersion": "1.4.0",
        "data": {"object": {"id": 7, "name": "Old", "categoryId": 2, "status": "available"}},
    }
    proxy = behind_faults(lambda method, path, nth: Answer(200, [older]))
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        [event] = await collect(petstore.events.list())
    # A server before 1.6.0 had live alone: its event reads as livemode true (the document's default).
    assert event.request is None and event.to_wire() == {**older, "livemode": True}
