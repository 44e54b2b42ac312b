"""One test body for both clients: what the sync client answers is passed through, what the async one answers is awaited."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

from petstore import AsyncPager, AsyncPetStore, Pager, PetStore

T = TypeVar("T")
Client = PetStore | AsyncPetStore
Connect = Callable[..., AbstractAsyncContextManager[Client]]


async def call(answer: T | Awaitable[T]) -> T:
    if inspect.isawaitable(answer):
        return await answer
    return answer


async def collect(pager: Pager[T] | AsyncPager[T]) -> list[T]:
    """Every item of a listing, walked as a caller walks it: `for`, or `async for`."""
    if isinstance(pager, AsyncPager):
        return [item async for item in pager]
    return list(pager)


async def pages_of(pager: Pager[T] | AsyncPager[T]) -> list[Any]:
    """Every page of a listing, by `pages()`."""
    if isinstance(pager, AsyncPager):
        return [page async for page in pager.pages()]
    return list(pager.pages())


async def eventually(read: Callable[[], Awaitable[T]], done: Callable[[T], bool], timeout: float = 10) -> T:
    """`read()` again every 50 ms until `done` says so or `timeout` seconds have passed; the last value either way."""
    deadline = time.monotonic() + timeout
    while True:
        value = await read()
        if done(value) or time.monotonic() > deadline:
            return value
        await asyncio.sleep(0.05)
