"""A call's own options over the client's, with_options, the whole answer, the request id on results, the log and the
cap on a Retry-After (issue 47): against the real service, behind the fault proxy where a network's or a gateway's fault is needed."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from petstore import AsyncPetStore, PetStore, RateLimitError, ServiceUnavailableError, TimeoutError
from support.both import Connect, call
from support.fault_proxy import Answer, FaultProxy
from support.service import Service

Proxies = Callable[..., FaultProxy]
UUID = r"[0-9a-f-]{36}"
UNAVAILABLE = Answer(503, {"code": "SERVICE_UNAVAILABLE", "message": "Down.", "status": 503}, {"Retry-After": "0"})
PACKAGE = Path(__file__).resolve().parents[1]


def logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the `petstore` logger said, as `LEVEL message`."""
    return [f"{record.levelname} {record.getMessage()}" for record in caplog.records if record.name == "petstore"]


async def test_times_a_call_out_and_retries_it_by_its_own_timeout_and_max_retries_over_the_client_s(
    connect: Connect, behind_faults: Proxies
) -> None:
    proxy = behind_faults(lambda method, path, nth: "hang")
    async with connect(base_url=f"{proxy.url}/v1", timeout=30, max_retries=2) as petstore:
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            await call(petstore.pets.list(timeout=0.3, max_retries=0).first_page())
        with pytest.raises(TimeoutError, match=r"httpx.Timeout|Timeout\("):
            await call(petstore.pets.list(timeout=httpx.Timeout(0.3), max_retries=0).first_page())
    assert time.monotonic() - started < 5 and len(proxy.calls) == 2

    flaky = behind_faults(lambda method, path, nth: UNAVAILABLE if nth < 2 else "forward")
    async with connect(base_url=f"{flaky.url}/v1", max_retries=0, timeout=httpx.Timeout(5.0)) as petstore:
        with pytest.raises(ServiceUnavailableError):
            await call(petstore.pets.list().first_page())
        assert isinstance((await call(petstore.pets.list(max_retries=2).first_page())).data, list)
    assert flaky.calls == ["GET /v1/pets"] * 3


async def test_sends_a_call_s_extra_headers_over_the_client_s_whatever_their_case(connect: Connect) -> None:
    # The service echoes a sane X-Request-Id it is given: the one that reached it.
    async with connect(extra_headers={"X-Request-Id": "py-client-trace"}) as petstore:
        assert (await call(petstore.pets.create(name="Traced", category_id=2)))._request_id == "py-client-trace"
        own = await call(petstore.pets.create(name="Traced again", category_id=2, extra_headers={"x-request-id": "py-call-trace"}))
        assert own._request_id == "py-call-trace"


async def test_makes_with_with_options_a_client_of_other_options_on_the_same_connections(
    kind: str, service: Service, behind_faults: Proxies
) -> None:
    proxy = behind_faults(lambda method, path, nth: UNAVAILABLE)
    sent: list[str] = []
    base_url = f"{proxy.url}/v1"
    if kind == "sync":
        with httpx.Client(event_hooks={"request": [lambda request: sent.append(request.url.path)]}) as http_client:
            petstore = PetStore(api_key=service.api_key, base_url=base_url, max_retries=2, http_client=http_client)
            with petstore.with_options(max_retries=0) as hasty, pytest.raises(ServiceUnavailableError):
                hasty.pets.list().first_page()
            assert len(sent) == 1
            with pytest.raises(ServiceUnavailableError):
                petstore.pets.list().first_page()
    else:

        async def record(request: httpx.Request) -> None:
            sent.append(request.url.path)

        async with httpx.AsyncClient(event_hooks={"request": [record]}) as async_client:
            apetstore = AsyncPetStore(api_key=service.api_key, base_url=base_url, max_retries=2, http_client=async_client)
            async with apetstore.with_options(max_retries=0) as ahasty:
                with pytest.raises(ServiceUnavailableError):
                    await ahasty.pets.list().first_page()
            assert len(sent) == 1
            with pytest.raises(ServiceUnavailableError):
                await apetstore.pets.list().first_page()
    assert len(sent) == 4 and len(proxy.calls) == 4, "one client's pool: the derived client left it open"


async def test_answers_a_create_s_status_and_headers_with_raw_response_location_and_idempotent_replayed(connect: Connect) -> None:
    key = f"py-raw-{time.time_ns()}"
    async with connect() as petstore:
        created = await call(petstore.pets.with_raw_response.create(name="Raw", category_id=2, idempotency_key=key))
        assert created.status == 201
        assert re.search(rf"/v1/pets/{created.data.id}$", created.headers["location"])
        assert "idempotent-replayed" not in created.headers
        assert re.search(r";r=\d+;t=\d+$", created.headers["ratelimit"])
        assert created.request_id and re.fullmatch(UUID, created.request_id)
        assert created.data._request_id == created.request_id == created.headers["x-request-id"]

        replayed = await call(petstore.pets.with_raw_response.create(name="Raw", category_id=2, idempotency_key=key))
        assert (replayed.status, replayed.headers["idempotent-replayed"]) == (201, "true")
        assert replayed.headers["location"] == created.headers["location"] and replayed.data == created.data
        assert replayed.request_id != created.request_id

        # The deprecated getPet's answer says so, and when it goes.
        with pytest.warns(FutureWarning, match="5 December 2030"):
            old = await call(petstore.pets.with_raw_response.get(created.data.id))
        assert old.headers["deprecation"] and "2030" in old.headers["sunset"] and old.data == created.data


async def test_carries_the_request_id_on_every_result_object_out_of_its_fields_and_on_every_page(connect: Connect) -> None:
    async with connect() as petstore:
        pet = await call(petstore.pets.create(name="Identified", category_id=2))
        assert pet._request_id and re.fullmatch(UUID, pet._request_id)
        assert "_request_id" not in pet.to_wire() and "_request_id" not in dataclasses.asdict(pet)
        assert "_request_id" not in repr(pet) and pet == dataclasses.replace(pet)
        inventory = await call(petstore.store.inventory())
        assert inventory._request_id and inventory._request_id != pet._request_id

        await call(petstore.pets.create(name="Identified too", category_id=2))
        listing = await call(petstore.pets.with_raw_response.list(limit=1))
        assert 'rel="next"' in listing.headers["link"] and listing.data._request_id == listing.request_id
        second = await call(listing.data.get_next_page())
        assert second._request_id and re.fullmatch(UUID, second._request_id) and second._request_id != listing.request_id


async def test_logs_each_attempt_at_debug_each_answer_and_wait_at_info_never_the_key(
    connect: Connect, behind_faults: Proxies, service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="petstore")
    gateway = Answer(502, {"message": "Bad gateway"})
    proxy = behind_faults(lambda method, path, nth: gateway if method == "POST" and nth == 0 else "forward")
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        pet = await call(petstore.pets.create(name="Logged", category_id=2, idempotency_key="py-logged"))
        lines = logged(caplog)
        assert lines[0] == "DEBUG POST /pets: sending (attempt 1 of 3, Idempotency-Key py-logged)"
        assert re.fullmatch(r"INFO POST /pets: 502 in \d+ ms, request unnamed \(attempt 1 of 3\)", lines[1])
        assert re.fullmatch(r"INFO POST /pets: waiting 0\.\d\d s before attempt 2 of 3", lines[2])
        assert lines[3] == "DEBUG POST /pets: sending (attempt 2 of 3, Idempotency-Key py-logged)"
        assert re.fullmatch(rf"INFO POST /pets: 201 in \d+ ms, request {pet._request_id} \(attempt 2 of 3\)", lines[4])
        assert len(lines) == 5 and service.api_key not in caplog.text

        caplog.clear()
        caplog.set_level(logging.INFO, logger="petstore")
        await call(petstore.pets.list(limit=1).first_page())
        assert [re.sub(r"\d+ ms|request \S+", "…", line) for line in logged(caplog)] == [
            "INFO GET /pets?limit=1: 200 in …, … (attempt 1 of 3)"
        ]


def test_logs_to_stderr_at_the_level_petstore_log_names_and_never_the_key(service: Service, tmp_path: Path) -> None:
    program = "from petstore import PetStore\nPetStore().pets.list(limit=1).first_page()\n"
    environment = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(PACKAGE),
        "PETSTORE_API_KEY": service.api_key,
        "PETSTORE_BASE_URL": service.base_url,
        "PETSTORE_LOG": "debug",
    }
    done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}"
    assert re.fullmatch(rf"{stamp} petstore DEBUG GET /pets\?limit=1: sending \(attempt 1 of 3\)", lines[0])
    assert re.fullmatch(rf"{stamp} petstore INFO GET /pets\?limit=1: 200 in \d+ ms, request {UUID} \(attempt 1 of 3\)", lines[1])
    assert len(lines) == 2 and service.api_key not in done.stderr


async def test_waits_the_retry_after_a_429_asks_for_saying_so(
    connect: Connect, behind_faults: Proxies, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="petstore")
    limited = Answer(429, {"code": "RATE_LIMITED", "message": "Slow down.", "status": 429}, {"Retry-After": "1"})
    proxy = behind_faults(lambda method, path, nth: limited if nth == 0 else "forward")
    async with connect(base_url=f"{proxy.url}/v1") as petstore:
        started = time.monotonic()
        await call(petstore.store.inventory())
    assert time.monotonic() - started >= 1.0
    assert "INFO GET /store/inventory: waiting 1 s, as Retry-After asks, before attempt 2 of 3" in logged(caplog)


async def test_raises_at_once_a_429_whose_retry_after_is_over_max_retry_after_saying_why(
    kind: str, connect: Connect, rate_limited_service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="petstore")
    key = rate_limited_service.api_keys[2 if kind == "sync" else 3]
    async with connect(api_key=key, base_url=rate_limited_service.base_url) as petstore:
        await call(petstore.store.inventory())
        caplog.clear()
        started = time.monotonic()
        with pytest.raises(RateLimitError) as limited:
            await call(petstore.with_options(max_retry_after=1).store.inventory())
    assert time.monotonic() - started < 1 and limited.value.retry_after is not None and limited.value.retry_after > 1
    assert logged(caplog)[1:] == [
        f"INFO GET /store/inventory: not waiting the {limited.value.retry_after} s Retry-After asks,"
        " over max_retry_after (1 s): RateLimitError raised"
    ]


async def test_cancels_an_async_call_as_any_task_in_flight_or_waiting_to_retry_saying_so(
    service: Service, behind_faults: Proxies, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="petstore")
    hanging = behind_faults(lambda method, path, nth: "hang")
    async with AsyncPetStore(api_key=service.api_key, base_url=f"{hanging.url}/v1") as petstore:
        listing = asyncio.create_task(petstore.pets.list().first_page())
        await asyncio.sleep(0.2)
        listing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await listing
    assert hanging.calls == ["GET /v1/pets"]

    waiting = behind_faults(lambda method, path, nth: Answer(503, {"code": "SERVICE_UNAVAILABLE", "status": 503}, {"Retry-After": "10"}))
    async with AsyncPetStore(api_key=service.api_key, base_url=f"{waiting.url}/v1") as petstore:
        started = time.monotonic()
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(petstore.store.inventory(), 0.5)
        assert time.monotonic() - started < 2 and waiting.calls == ["GET /v1/store/inventory"]
        # Its connections still serve: a client on them, with the service's own address.
        assert (await petstore.with_options(base_url=service.base_url).store.inventory()).available >= 0
    said = [re.sub(r"\d+ ms", "… ms", line) for line in logged(caplog) if "cancelled" in line]
    assert said == [
        "INFO GET /pets: cancelled after … ms, in attempt 1 of 3",
        "INFO GET /store/inventory: cancelled after … ms, waiting to retry after attempt 1 of 3",
    ]


def test_refuses_options_that_mean_nothing_and_takes_an_httpx_timeout() -> None:
    assert PetStore(api_key="psk_x", timeout=httpx.Timeout(5)).with_options(timeout=httpx.Timeout(1, connect=2))
    petstore = PetStore(api_key="psk_x")
    with pytest.raises(ValueError, match="timeout"):
        petstore.with_options(timeout=0)
    with pytest.raises(ValueError, match="max_retries"):
        petstore.with_options(max_retries=-1)
    with pytest.raises(ValueError, match="max_retry_after"):
        petstore.with_options(max_retry_after=-1)
    with pytest.raises(ValueError, match="timeout"):
        PetStore(api_key="psk_x", base_url="http://127.0.0.1:9/v1").pets.list(timeout=-1).first_page()
