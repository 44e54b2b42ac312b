"""Sandboxes against the real service: the four calls, and `for_test()`, the helper an integrator's suite makes its sandbox with."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from petstore import (
    AsyncPetStore,
    AsyncTestSandbox,
    AuthenticationError,
    CreatedSandbox,
    NotFoundError,
    PermissionDeniedError,
    Sandbox,
    TestSandbox,
)
from support.both import Client, Connect, call, collect


@asynccontextmanager
async def for_test(petstore: Client, **options: Any) -> AsyncIterator[TestSandbox | AsyncTestSandbox]:
    """`with` the sync client's helper, `async with` the async one's: as an integrator writes each."""
    if isinstance(petstore, AsyncPetStore):
        async with petstore.sandboxes.for_test(**options) as made:
            yield made
    else:
        with petstore.sandboxes.for_test(**options) as sandbox:
            yield sandbox


def listed(sandbox: CreatedSandbox) -> Sandbox:
    """The sandbox as a listing or a get answers it: without its key."""
    return Sandbox(
        id=sandbox.id, name=sandbox.name, created_at=sandbox.created_at, expires_at=sandbox.expires_at, livemode=sandbox.livemode
    )


async def test_creates_lists_gets_and_deletes_sandboxes(connect: Connect) -> None:
    async with connect() as petstore:
        made = await call(petstore.sandboxes.create(name="ci-run-1234", expires_in=3600))
        other = await call(petstore.sandboxes.create(name="ci-run-1235"))
        try:
            assert isinstance(made, CreatedSandbox) and made.id.startswith("sbx_") and made.api_key.startswith("psk_test_")
            assert (made.name, made.livemode, (made.expires_at - made.created_at).total_seconds()) == ("ci-run-1234", True, 3600)
            assert (other.expires_at - other.created_at).total_seconds() == 86400

            assert await call(petstore.sandboxes.get(made.id)) == listed(made)
            walked = await collect(petstore.sandboxes.list(limit=1))
            assert listed(made) in walked and listed(other) in walked
            first = await call(petstore.sandboxes.with_raw_response.list(limit=1))
            assert first.status == 200 and len(first.data.data) == 1 and first.data.has_next_page()
        finally:
            await call(petstore.sandboxes.delete(made.id))
            await call(petstore.sandboxes.delete(other.id))

        with pytest.raises(NotFoundError) as gone:
            await call(petstore.sandboxes.get(made.id))
        assert gone.value.code == "SANDBOX_NOT_FOUND"
        assert made.id not in [sandbox.id for sandbox in await collect(petstore.sandboxes.list(limit=100))]


async def test_a_sandbox_s_own_key_cannot_manage_sandboxes(connect: Connect) -> None:
    async with connect() as petstore, for_test(petstore) as sandbox:
        with pytest.raises(PermissionDeniedError) as refused:
            await collect(sandbox.client.sandboxes.list())
        assert refused.value.code == "INSUFFICIENT_SCOPE"


async def test_for_test_gives_an_empty_store_apart_from_live_and_deletes_it_at_the_end(connect: Connect, kind: str) -> None:
    async with connect() as petstore:
        live_pet = await call(petstore.pets.create(name=f"Live {kind}", category_id=1))
        async with for_test(petstore, name="checkout tests") as sandbox:
            assert isinstance(sandbox.client, type(petstore))
            assert (sandbox.sandbox.name, sandbox.id) == ("checkout tests", sandbox.sandbox.id)
            assert sandbox.api_key.startswith("psk_test_")
            assert (sandbox.sandbox.expires_at - sandbox.sandbox.created_at).total_seconds() == 3600
            assert (await call(petstore.sandboxes.get(sandbox.id))).name == "checkout tests"

            # Empty when made: live's pet is not there, not even by its id.
            assert await collect(sandbox.client.pets.list()) == []
            with pytest.raises(NotFoundError):
                await call(sandbox.client.store.orders.create(pet_id=live_pet.id, quantity=1))

            # What it makes stays in it: live neither lists nor finds it.
            sandbox_pet = await call(sandbox.client.pets.create(name=f"Sandboxed {kind}", category_id=2))
            assert [pet.id for pet in await collect(sandbox.client.pets.list())] == [sandbox_pet.id]
            live_ids = [pet.id for pet in await collect(petstore.pets.list(limit=100))]
            assert live_pet.id in live_ids and sandbox_pet.id not in live_ids
            with pytest.raises(NotFoundError):
                await call(petstore.store.orders.create(pet_id=sandbox_pet.id, quantity=1))

        # Gone at the end: not found, and its key refused.
        with pytest.raises(NotFoundError):
            await call(petstore.sandboxes.get(sandbox.id))
        with pytest.raises(AuthenticationError) as refused:
            await collect(sandbox.client.pets.list())
        assert refused.value.status == 401


async def test_for_test_deletes_the_sandbox_when_the_block_raises_and_takes_one_already_gone_as_no_error(connect: Connect) -> None:
    async with connect() as petstore:
        with pytest.raises(RuntimeError, match="a failed test"):
            async with for_test(petstore, expires_in=60) as sandbox:
                assert sandbox.sandbox.name.startswith("test 20")
                raise RuntimeError("a failed test")
        with pytest.raises(NotFoundError):
            await call(petstore.sandboxes.get(sandbox.id))

        async with for_test(petstore) as deleted_within:
            await call(petstore.sandboxes.delete(deleted_within.id))
