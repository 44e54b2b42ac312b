"""Fixtures: the service (started once for the run), clients of both kinds, a fault proxy, a webhook receiver.

Tests are `async def` and each runs in an event loop of its own (pytest_pyfunc_call below), so that
one test body drives the sync client and the async one alike: `connect` is parametrized over both,
and `call` (support/both.py) awaits what the async client answers and passes the sync one's through.
"""

from __future__ import annotations

import asyncio
import inspect
import os
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from petstore import AsyncPetStore, PetStore
from support.both import Client, Connect
from support.fault_proxy import FaultProxy, Plan
from support.receiver import Receiver
from support.service import WEBHOOK_ENVIRONMENT, Database, Service, start_service

@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Runs an `async def` test with asyncio.run: a small stand-in for pytest-asyncio, which Debian 12's pytest lacks."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    parameters = inspect.signature(pyfuncitem.obj).parameters
    asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in parameters}))
    return True


@pytest.fixture(scope="session")
def service() -> Iterator[Service]:
    """The service on the run's own database (PETSTORE_TEST_DATABASE: sqlite, the default, or mysql), delivering webhooks to 127.0.0.1."""
    database = Database(os.environ.get("PETSTORE_TEST_DATABASE", "sqlite"))
    try:
        running = start_service(database, WEBHOOK_ENVIRONMENT)
        try:
            yield running
        finally:
            running.stop()
    finally:
        database.drop()


@pytest.fixture(scope="session")
def rate_limited_service() -> Iterator[Service]:
    """A second service that lets each key make one request a minute; each test takes keys of its own."""
    database = Database("sqlite")
    try:
        running = start_service(database, {"RATE_LIMIT_PER_MINUTE": "1"}, key_count=8)
        try:
            yield running
        finally:
            running.stop()
    finally:
        database.drop()


@pytest.fixture(params=["sync", "async"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def connect(kind: str, service: Service) -> Connect:
    """`async with connect(**options) as petstore`: a PetStore or an AsyncPetStore (by `kind`) of the service, with its key."""

    @asynccontextmanager
    async def connect(**options: Any) -> AsyncIterator[Client]:
        settings = {"api_key": service.api_key, "base_url": service.base_url, **options}
        if kind == "sync":
            with PetStore(**settings) as petstore:
                yield petstore
        else:
            async with AsyncPetStore(**settings) as petstore:
                yield petstore

    return connect


@pytest.fixture
def behind_faults(service: Service) -> Iterator[Callable[..., FaultProxy]]:
    """`behind_faults(plan)`: a fault proxy in front of the service (or of `target`), closed after the test."""
    proxies: list[FaultProxy] = []

    def start(plan: Plan, target: str = service.root_url) -> FaultProxy:
        proxies.append(FaultProxy(target, plan))
        return proxies[-1]

    yield start
    for proxy in proxies:
        proxy.close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    started = Receiver()
    yield started
    started.close()
