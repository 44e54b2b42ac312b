"""Errors and retries, against the real service and behind a proxy that injects a network's and a gateway's faults."""

from __future__ import annotations

import re
import secrets
import socket
import time
from collections.abc import Callable

import pytest

from petstore import (
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ConnectionError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    PetStore,
    PetStoreError,
    RateLimitError,
    ServiceUnavailableError,
    TimeoutError,
    UnprocessableEntityError,
)
from support.both import Connect, call, collect, eventually
from support.fault_proxy import Answer, FaultProxy
from support.service import Service

Proxies = Callable[..., FaultProxy]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_raises_the_class_of_each_status_the_service_answers_with_its_code_and_request_id(
    connect: Connect, service: Service
) -> None:
    async with connect() as petstore:
        with pytest.raises(NotFoundError) as missing:
            await call(petstore.store.orders.get(987654321))
        assert (missing.value.status, missing.value.code) == (404, "ORDER_NOT_FOUND")
        request_id = missing.value.request_id
        assert request_id

        async def log() -> str:
            return service.log_text()

        assert request_id in await eventually(log, lambda text: request_id in text), "the id support finds in the log"
        assert isinstance(missing.value, PetStoreError)
        assert str(missing.value) == f"404 ORDER_NOT_FOUND: {missing.value.message} (request {missing.value.request_id})"
        message = missing.value.message
        assert repr(missing.value) == f"NotFoundError(status=404, code='ORDER_NOT_FOUND', request_id='{request_id}', message={message!r})"

        with pytest.raises(BadRequestError) as invalid:
            await call(petstore.pets.create(name=" ", category_id=1))
        assert (invalid.value.status, invalid.value.code) == (400, "VALIDATION_FAILED")
        assert "name" in invalid.value.message and invalid.value.request_id

        key = f"reused-{secrets.token_hex(4)}"
        await call(petstore.pets.create(name="First body", category_id=1, idempotency_key=key))
        with pytest.raises(UnprocessableEntityError) as reused:
            await call(petstore.pets.create(name="Other body", category_id=1, idempotency_key=key))
        assert (reused.value.status, reused.value.code) == (422, "IDEMPOTENCY_KEY_REUSED")

    async with connect(api_key="psk_not-a-key") as stranger:
        with pytest.raises(AuthenticationError) as unknown:
            await call(stranger.pets.list().first_page())
        assert (unknown.value.status, unknown.value.code) == (401, "API_KEY_INVALID")

    async with connect(api_key=service.mint_key("python read-only", ["pets:read"])) as reader:
        with pytest.raises(PermissionDeniedError) as forbidden:
            await call(reader.pets.create(name="Not mine to add", category_id=1))
        assert (forbidden.value.status, forbidden.value.code) == (403, "INSUFFICIENT_SCOPE")
        assert (await call(reader.pets.list(limit=1).first_page())).data


@pytest.mark.parametrize("fault", ["lose-answer", "cut-after"])
async def test_retries_a_create_whose_answer_was_lost_with_the_same_key_and_stores_it_once(
    connect: Connect, behind_faults: Proxies, fault: str
) -> None:
    name = f"Once {fault} {secrets.token_hex(4)}"
    proxy = behind_faults(lambda method, path, nth: fault if method == "POST" and nth == 0 else "forward")
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        pet = await call(petstore.pets.create(name=name, category_id=1))
    assert proxy.calls == ["POST /v1/pets", "POST /v1/pets"]
    first, retry = (seen.idempotency_key for seen in proxy.seen)
    assert first and first == retry
    async with connect() as petstore:
        assert [candidate for candidate in await collect(petstore.pets.list(limit=100)) if candidate.name == name] == [pet]


async def test_sends_a_new_key_with_each_create_and_the_caller_s_own_when_given(
    connect: Connect, behind_faults: Proxies
) -> None:
    own_key = f"order-key-{secrets.token_hex(4)}"
    proxy = behind_faults(lambda method, path, nth: "forward")
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        pet = await call(petstore.pets.create(name="Keyed", category_id=1))
        await call(petstore.pets.create(name="Keyed", category_id=1))
        await call(petstore.store.orders.create(pet_id=pet.id, quantity=1, idempotency_key=own_key))
    keys = [seen.idempotency_key for seen in proxy.seen]
    assert keys[0] and keys[1] and keys[0] != keys[1]
    assert keys[2] == own_key


async def test_retries_a_get_through_a_gateway_error_and_never_a_request_the_service_refused(
    connect: Connect, behind_faults: Proxies
) -> None:
    gateway = Answer(502, {"message": "Bad gateway"})
    proxy = behind_faults(lambda method, path, nth: gateway if method == "GET" and nth == 0 else "forward")
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        assert len((await call(petstore.pets.list(limit=1).first_page())).data) == 1
        assert proxy.calls == ["GET /v1/pets", "GET /v1/pets"]
        with pytest.raises(BadRequestError):
            await call(petstore.pets.create(name="", category_id=1))
    assert proxy.calls[2:] == ["POST /v1/pets"]


async def test_never_retries_a_post_that_carries_no_idempotency_key(connect: Connect, behind_faults: Proxies) -> None:
    proxy = behind_faults(lambda method, path, nth: "lose-answer" if path.endswith("/rotate-secret") else "forward")
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        endpoint = await call(petstore.webhook_endpoints.create(url="http://127.0.0.1:9/never", events=["order.placed"]))
        with pytest.raises(ServiceUnavailableError):
            await call(petstore.webhook_endpoints.rotate_secret(endpoint.id))
        await call(petstore.webhook_endpoints.delete(endpoint.id))
    assert proxy.calls.count(f"POST /v1/webhook-endpoints/{endpoint.id}/rotate-secret") == 1


async def test_raises_the_classes_of_faults_having_retried_those_worth_retrying(
    connect: Connect, behind_faults: Proxies
) -> None:
    in_use = Answer(409, {"code": "IDEMPOTENCY_KEY_IN_USE", "message": "Still running.", "status": 409}, {"Retry-After": "0"})
    proxy = behind_faults(lambda method, path, nth: in_use)
    async with connect(base_url=f"{proxy.url}/v1", max_retries=1) as petstore:
        with pytest.raises(ConflictError) as conflict:
            await call(petstore.pets.create(name="Racing", category_id=1))
    assert (conflict.value.code, conflict.value.retry_after, len(proxy.calls)) == ("IDEMPOTENCY_KEY_IN_USE", 0, 2)

    broken = Answer(500, {"code": "INTERNAL_ERROR", "message": "Broken on purpose.", "status": 500, "requestId": "req-500"})
    proxy = behind_faults(lambda method, path, nth: broken)
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        with pytest.raises(InternalServerError) as internal:
            await call(petstore.pets.list().first_page())
    assert (internal.value.status, internal.value.code, internal.value.message) == (500, "INTERNAL_ERROR", "Broken on purpose.")
    assert (internal.value.request_id, len(proxy.calls)) == ("req-500", 1)

    down = Answer(503, {"code": "SERVICE_UNAVAILABLE", "message": "Down.", "status": 503}, {"Retry-After": "0"})
    proxy = behind_faults(lambda method, path, nth: down)
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        with pytest.raises(ServiceUnavailableError) as unavailable:
            await call(petstore.pets.list().first_page())
    assert (unavailable.value.status, unavailable.value.retry_after, len(proxy.calls)) == (503, 0, 3)

    page = Answer(504, "<html>Gateway Timeout</html>")
    proxy = behind_faults(lambda method, path, nth: page)
    async with connect(base_url=f"{proxy.url}/v1", max_retries=0) as petstore:
        with pytest.raises(ServiceUnavailableError) as gateway:
            await call(petstore.pets.list().first_page())
    assert (gateway.value.status, gateway.value.code, gateway.value.message) == (504, None, "The service answered 504.")

    proxy = behind_faults(lambda method, path, nth: "hang")
    async with connect(base_url=f"{proxy.url}/v1", timeout=0.3, max_retries=0) as petstore:
        with pytest.raises(TimeoutError) as timed_out:
            await call(petstore.pets.list().first_page())
    assert (timed_out.value.status, timed_out.value.code, timed_out.value.request_id) == (None, None, None)

    async with connect(base_url=f"http://127.0.0.1:{free_port()}/v1", max_retries=1) as nowhere:
        started = time.monotonic()
        with pytest.raises(ConnectionError) as refused:
            await call(nowhere.pets.list().first_page())
    assert not isinstance(refused.value, TimeoutError) and refused.value.status is None
    assert time.monotonic() - started >= 0.25, "one retry, after a backoff of 0.25 to 0.5 s"


async def test_raises_when_the_answer_is_not_what_the_document_says(connect: Connect, behind_faults: Proxies) -> None:
    proxy = behind_faults(lambda method, path, nth: Answer(200, {"name": "No id"}, {"X-Request-Id": "req-odd"}))
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        with pytest.raises(PetStoreError, match="not what the API's document says") as odd:
            await call(petstore.store.orders.get(1))
    assert (odd.value.status, odd.value.request_id, len(proxy.calls)) == (200, "req-odd", 1)


async def test_waits_the_retry_after_of_a_429_then_retries(connect: Connect, behind_faults: Proxies) -> None:
    limited = Answer(429, {"code": "RATE_LIMITED", "message": "Slow down.", "status": 429}, {"Retry-After": "1"})
    proxy = behind_faults(lambda method, path, nth: limited if nth == 0 else "forward")
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        started = time.monotonic()
        pet = await call(petstore.pets.create(name="Patient", category_id=1))
    assert time.monotonic() - started >= 1.0
    assert pet.name == "Patient" and proxy.calls == ["POST /v1/pets", "POST /v1/pets"]


async def test_raises_rate_limit_error_at_once_when_the_service_asks_for_a_longer_wait_than_is_worth_it(
    kind: str, connect: Connect, behind_faults: Proxies, rate_limited_service: Service
) -> None:
    key = rate_limited_service.api_keys[0 if kind == "sync" else 1]
    proxy = behind_faults(lambda method, path, nth: "forward", target=rate_limited_service.root_url)
    async with connect(api_key=key, base_url=f"{proxy.url}/v1") as petstore:
        await call(petstore.pets.list().first_page())
        started = time.monotonic()
        with pytest.raises(RateLimitError) as limited:
            await call(petstore.pets.list().first_page())
    assert (limited.value.status, limited.value.code) == (429, "RATE_LIMITED")
    assert limited.value.retry_after is not None and 30 < limited.value.retry_after <= 60
    assert time.monotonic() - started < 1 and len(proxy.calls) == 2, "a minute's wait is the caller's to choose"
    assert limited.value.request_id and re.fullmatch(r"[\w-]+", limited.value.request_id)


def test_takes_its_key_and_base_url_from_the_environment_and_refuses_to_start_without_a_key(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PETSTORE_API_KEY", service.api_key)
    monkeypatch.setenv("PETSTORE_BASE_URL", service.base_url + "/")
    with PetStore() as petstore:
        assert petstore.pets.list(limit=1).first_page().data
    monkeypatch.setenv("PETSTORE_API_KEY", "")
    with pytest.raises(ValueError, match="needs an API key"):
        PetStore()
    with pytest.raises(ValueError, match="max_retries"):
        PetStore(api_key="psk_x", max_retries=-1)
    with pytest.raises(ValueError, match="timeout"):
        PetStore(api_key="psk_x", timeout=0)
